package mintlifytest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Deployments, previews and automations (openapi.json): a deployment or
// preview is queued, then in_progress, then ends in success or failure,
// on the fake's clock; a branch's preview keeps its URL across redeploys;
// automations are a set of known ids per project.

// DeploymentScript is the lifecycle of a deployment or preview, measured on
// the fake's clock from its trigger: queued for Queued, in_progress for
// Building, then Outcome: OutcomeCompleted ends in success, OutcomeFailed
// in failure, OutcomeNever never ends.
//
// A preview's branch picks its own outcome with a marker in its name:
// "fake-failure" (docs/fake-failure, say) fails, "fake-never" builds
// forever.
type DeploymentScript struct {
	Queued   time.Duration
	Building time.Duration
	Outcome  Outcome
}

// defaultDeploymentScript is a deployment's lifecycle when the
// configuration sets none: queued 1 s, building 4 s, success.
var defaultDeploymentScript = DeploymentScript{Queued: time.Second, Building: 4 * time.Second, Outcome: OutcomeCompleted}

func (d DeploymentScript) withBranch(branch string) DeploymentScript {
	switch {
	case strings.Contains(branch, "fake-failure"):
		d.Outcome = OutcomeFailed
	case strings.Contains(branch, "fake-never"):
		d.Outcome = OutcomeNever
	}
	return d
}

// The demo project's automations (see AddAutomation).

// DemoAutomationID is active, on a custom schedule: it can be run.
const DemoAutomationID = "demo-automation"

// DemoPausedAutomationID is not active: a trigger answers 400.
const DemoPausedAutomationID = "demo-automation-paused"

// DemoDailyAutomationID runs on the daily schedule, not a custom one:
// a trigger answers 400.
const DemoDailyAutomationID = "demo-automation-daily"

// Automation is an automation a project has.
type Automation struct {
	Active bool
	// Schedule is "custom" for one that can be triggered, or another
	// schedule ("daily", "weekly"), which cannot.
	Schedule string
}

// deployState is the fake's deployments, previews and automations.
type deployState struct {
	script      DeploymentScript
	previewsOff bool            // Config.PreviewsOffPlan: no organization has previews
	orgPreviews map[string]bool // per organization, set by SetPreviewsOnPlan
	seq         uint64
	byID        map[string]*deployment
	order       []string
	previews    map[string]*preview // by project and branch
	automations map[string]Automation
	runs        []AutomationRunRecord
}

type deployment struct {
	id, projectID string
	branch        string // "" for a deployment of the deployment branch
	preview       bool
	script        DeploymentScript
	createdAt     time.Time
	seq           uint64
	source        string
}

type preview struct {
	url       string
	statusIDs []string
}

func newDeployState(cfg Config) *deployState {
	d := &deployState{
		script: cfg.DefaultDeployment, previewsOff: cfg.PreviewsOffPlan, orgPreviews: map[string]bool{},
		byID: map[string]*deployment{}, previews: map[string]*preview{}, automations: map[string]Automation{},
	}
	if d.script == (DeploymentScript{}) {
		d.script = defaultDeploymentScript
	}
	if !cfg.NoDemo {
		d.automations[automationKey(DemoProjectID, DemoAutomationID)] = Automation{Active: true, Schedule: "custom"}
		d.automations[automationKey(DemoProjectID, DemoPausedAutomationID)] = Automation{Active: false, Schedule: "custom"}
		d.automations[automationKey(DemoProjectID, DemoDailyAutomationID)] = Automation{Active: true, Schedule: "daily"}
	}
	return d
}

func automationKey(projectID, id string) string { return projectID + "\x00" + id }

// statusObject is the wire shape of a deployment's status.
type statusObject struct {
	ID              string        `json:"_id"`
	ProjectID       string        `json:"projectId"`
	CreatedAt       string        `json:"createdAt"`
	EndedAt         string        `json:"endedAt,omitempty"`
	Status          string        `json:"status"`
	Summary         string        `json:"summary"`
	Logs            []string      `json:"logs"`
	Subdomain       string        `json:"subdomain"`
	Screenshot      string        `json:"screenshot,omitempty"`
	ScreenshotLight string        `json:"screenshotLight,omitempty"`
	ScreenshotDark  string        `json:"screenshotDark,omitempty"`
	Author          *authorObject `json:"author"`
	Commit          commitObject  `json:"commit"`
	Source          string        `json:"source"`
}

type authorObject struct {
	Name         string `json:"name"`
	AvatarURL    string `json:"avatarUrl"`
	GitHubUserID int64  `json:"githubUserId"`
}

type commitObject struct {
	SHA          string `json:"sha"`
	Ref          string `json:"ref"`
	Message      string `json:"message"`
	FilesChanged struct {
		Added    []string `json:"added"`
		Modified []string `json:"modified"`
		Removed  []string `json:"removed"`
	} `json:"filesChanged"`
}

// render is the deployment's status at now.
func (d *deployment) render(now time.Time) statusObject {
	subdomain := slug(d.projectID)
	ref := cmp.Or(d.branch, "main")
	o := statusObject{
		ID: d.id, ProjectID: d.projectID, CreatedAt: d.createdAt.UTC().Format(timeLayout), Subdomain: subdomain,
		Author: &authorObject{Name: "Ada Lovelace", AvatarURL: "https://avatars.githubusercontent.com/u/1815", GitHubUserID: 1815},
		Source: d.source,
		Logs:   []string{fmt.Sprintf("Queued a deployment of %s@%s", subdomain, ref)},
	}
	x := splitmix64(d.seq)
	o.Commit.SHA = fmt.Sprintf("%016x%016x%08x", x, splitmix64(x), d.seq&0xffffffff)
	o.Commit.Ref = ref
	o.Commit.Message = fmt.Sprintf("Update the docs (#%d)", 100+d.seq)
	o.Commit.FilesChanged.Added = []string{"guides/deployments.mdx"}
	o.Commit.FilesChanged.Modified = []string{"docs.json", "quickstart.mdx"}
	o.Commit.FilesChanged.Removed = []string{}
	elapsed := now.Sub(d.createdAt)
	if elapsed < d.script.Queued {
		o.Status, o.Summary = "queued", "Waiting for a builder"
		return o
	}
	o.Logs = append(o.Logs, "Cloning "+ref+" at "+o.Commit.SHA[:7], "Installing dependencies", "Building 42 pages")
	if d.script.Outcome == OutcomeNever || elapsed < d.script.Queued+d.script.Building {
		o.Status, o.Summary = "in_progress", "Building 42 pages"
		return o
	}
	o.EndedAt = d.createdAt.Add(d.script.Queued + d.script.Building).UTC().Format(timeLayout)
	if d.script.Outcome == OutcomeFailed {
		o.Status, o.Summary = "failure", "Build failed: quickstart.mdx links to a page that does not exist"
		o.Logs = append(o.Logs, "Error: quickstart.mdx:12: broken link to /missing-page", "Build failed after 42 pages")
		return o
	}
	o.Status, o.Summary = "success", "Deployed 42 pages"
	o.Logs = append(o.Logs, "Published "+d.url())
	shot := "https://screenshots.mintlify.test/" + d.id
	o.Screenshot, o.ScreenshotLight, o.ScreenshotDark = shot+".png", shot+"-light.png", shot+"-dark.png"
	return o
}

// url is where the deployment is published.
func (d *deployment) url() string {
	if d.branch == "" {
		return "https://" + slug(d.projectID) + ".mintlify.app"
	}
	return previewURL(d.projectID, d.branch)
}

func previewURL(projectID, branch string) string {
	return fmt.Sprintf("https://%s-%s.mintlify.app", slug(projectID), slug(branch))
}

// newDeployment queues a deployment (branch "": the deployment branch).
// Called with s.mu held.
func (s *Fake) newDeployment(p *project, branch string, preview bool, source string) *deployment {
	ds := s.deploys
	ds.seq++
	now := s.clock.Now()
	d := &deployment{
		// A MongoDB ObjectId, as the API's _id: seconds, then a counter.
		id:        fmt.Sprintf("%08x%010x%06x", now.Unix()&0xffffffff, splitmix64(ds.seq)&0xffffffffff, ds.seq&0xffffff),
		projectID: p.id, branch: branch, preview: preview, script: ds.script.withBranch(branch),
		createdAt: now.UTC().Truncate(time.Millisecond), seq: ds.seq, source: source,
	}
	ds.byID[d.id] = d
	ds.order = append(ds.order, d.id)
	return d
}

// triggerUpdate queues a deployment of the project's deployment branch.
func (s *Fake) triggerUpdate(w http.ResponseWriter, _ *http.Request, _ string, p *project) {
	d := s.newDeployment(p, "", false, "api")
	writeJSON(w, http.StatusAccepted, map[string]string{"statusId": d.id})
}

// updateStatus answers a status of the key's organization; another
// organization's is as unknown as one that never existed.
func (s *Fake) updateStatus(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	d := s.deploys.byID[r.PathValue("statusId")]
	if d == nil || s.projects[d.projectID] == nil || s.projects[d.projectID].org != org {
		writeError(w, http.StatusNotFound, "Update status not found")
		return
	}
	writeJSON(w, http.StatusOK, d.render(s.clock.Now()))
}

// triggerPreview creates or redeploys the preview of a branch: the same
// branch again keeps its URL and gets a new status id.
func (s *Fake) triggerPreview(w http.ResponseWriter, r *http.Request, org string, p *project) {
	if !s.previewsOnPlan(org) {
		writeError(w, http.StatusForbidden, "Preview deployments are not available on your current plan")
		return
	}
	var body struct {
		Branch *string `json:"branch"`
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || json.Unmarshal(data, &body) != nil || body.Branch == nil || *body.Branch == "" {
		writeError(w, http.StatusBadRequest, "Invalid request. The `branch` field is required.")
		return
	}
	branch := *body.Branch
	key := p.id + "\x00" + branch
	pv := s.deploys.previews[key]
	if pv == nil {
		pv = &preview{url: s.freePreviewURL(p.id, branch)}
		s.deploys.previews[key] = pv
	}
	d := s.newDeployment(p, branch, true, "api")
	pv.statusIDs = append(pv.statusIDs, d.id)
	writeJSON(w, http.StatusAccepted, map[string]string{"statusId": d.id, "previewUrl": pv.url})
}

// freePreviewURL is a branch's preview URL, made unique when two
// branches slug alike (feature/x and feature-x).
func (s *Fake) freePreviewURL(projectID, branch string) string {
	url := previewURL(projectID, branch)
	for n := 2; s.previewURLTaken(url); n++ {
		url = strings.TrimSuffix(previewURL(projectID, branch), ".mintlify.app") + fmt.Sprintf("-%d.mintlify.app", n)
	}
	return url
}

func (s *Fake) previewURLTaken(url string) bool {
	for _, pv := range s.deploys.previews {
		if pv.url == url {
			return true
		}
	}
	return false
}

func (s *Fake) previewsOnPlan(org string) bool {
	if on, set := s.deploys.orgPreviews[org]; set {
		return on
	}
	return !s.deploys.previewsOff
}

// automationIDRE is what the fake accepts as an automation id; others are
// "malformed" (400), as the API says of ids it cannot parse.
var automationIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// triggerAutomation queues a run of an active automation on a custom
// schedule.
func (s *Fake) triggerAutomation(w http.ResponseWriter, r *http.Request, _ string, p *project) {
	id := r.PathValue("workflowSchemaId")
	if !automationIDRE.MatchString(id) {
		writeError(w, http.StatusBadRequest, "Invalid automation ID")
		return
	}
	a, ok := s.deploys.automations[automationKey(p.id, id)]
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, "Automation not found")
		return
	case !a.Active:
		writeError(w, http.StatusBadRequest, "Automation is not active")
		return
	case a.Schedule != "custom":
		writeError(w, http.StatusBadRequest, "Automation is not configured with a custom schedule")
		return
	}
	ds := s.deploys
	ds.seq++
	now := s.clock.Now()
	x := splitmix64(ds.seq)
	run := AutomationRunRecord{
		ProjectID: p.id, AutomationID: id, At: now,
		InstanceID: fmt.Sprintf("%08x%010x%06x", now.Unix()&0xffffffff, x&0xffffffffff, ds.seq&0xffffff),
		JobID:      fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", x>>32, (x>>16)&0xffff, x&0xfff, (x>>40)&0xfff, ds.seq),
	}
	ds.runs = append(ds.runs, run)
	writeJSON(w, http.StatusAccepted, map[string]string{"schemaId": id, "instanceId": run.InstanceID, "jobId": run.JobID})
}

// SetDefaultDeployment sets the lifecycle of deployments and previews
// triggered from now on (a preview's branch markers still count).
func (s *Fake) SetDefaultDeployment(script DeploymentScript) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deploys.script = script
}

// SetPreviewsOnPlan says whether an organization's plan has previews:
// without them, a preview trigger answers 403.
func (s *Fake) SetPreviewsOnPlan(org string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deploys.orgPreviews[org] = on
}

// AddAutomation gives a project an automation (or replaces it).
func (s *Fake) AddAutomation(projectID, automationID string, a Automation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deploys.automations[automationKey(projectID, automationID)] = a
}

// AutomationRunRecord is a run an automation trigger queued.
type AutomationRunRecord struct {
	ProjectID, AutomationID string
	InstanceID, JobID       string
	// At is when it was queued, on the fake's clock.
	At time.Time
}

// AutomationRuns returns the runs queued in a project, oldest first.
func (s *Fake) AutomationRuns(projectID string) []AutomationRunRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []AutomationRunRecord
	for _, r := range s.deploys.runs {
		if r.ProjectID == projectID {
			out = append(out, r)
		}
	}
	return out
}

// DeploymentRecord is what the fake knows of a deployment or preview.
type DeploymentRecord struct {
	StatusID  string
	ProjectID string
	// Branch is the preview's branch; "" for a deployment of the
	// deployment branch.
	Branch    string
	Preview   bool
	CreatedAt time.Time
	Script    DeploymentScript
	// Source is what triggered it: "api", or "dashboard" for one made with
	// TriggerDeployment.
	Source string
}

// DeploymentIDs returns the status ids of a project's deployments and
// previews, oldest first.
func (s *Fake) DeploymentIDs(projectID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for _, id := range s.deploys.order {
		if s.deploys.byID[id].projectID == projectID {
			ids = append(ids, id)
		}
	}
	return ids
}

// Deployment returns what the fake knows of a status id, and whether it
// exists.
func (s *Fake) Deployment(statusID string) (DeploymentRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.deploys.byID[statusID]
	if d == nil {
		return DeploymentRecord{}, false
	}
	return DeploymentRecord{StatusID: d.id, ProjectID: d.projectID, Branch: d.branch, Preview: d.preview,
		CreatedAt: d.createdAt, Script: d.script, Source: d.source}, true
}

// DeploymentStatus returns a status as the API would answer it now, and
// whether it exists: tests compare what a client kept with the fake's
// truth.
func (s *Fake) DeploymentStatus(statusID string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.deploys.byID[statusID]
	if d == nil {
		return nil, false
	}
	b, _ := json.Marshal(d.render(s.clock.Now()))
	return b, true
}

// PreviewRecord is a branch's preview: its URL and the status ids of its
// deployments, oldest first.
type PreviewRecord struct {
	URL       string
	StatusIDs []string
}

// Preview returns a branch's preview, and whether it has one.
func (s *Fake) Preview(projectID, branch string) (PreviewRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pv := s.deploys.previews[projectID+"\x00"+branch]
	if pv == nil {
		return PreviewRecord{}, false
	}
	return PreviewRecord{URL: pv.url, StatusIDs: slices.Clone(pv.statusIDs)}, true
}

// TriggerDeployment queues a deployment of a project's deployment branch
// directly, as the dashboard would (source "dashboard"), and returns its
// status id: tests use it to import or read deployments Terraform did not
// start. It does not count as a request or spend a budget.
func (s *Fake) TriggerDeployment(projectID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic("mintlifytest: TriggerDeployment: no project " + projectID)
	}
	return s.newDeployment(p, "", false, "dashboard").id
}

// ForgetDeployment removes a status id from the fake, as if the API had
// dropped it: its reads answer 404 from now on. Tests use it for a
// deployment that vanishes.
func (s *Fake) ForgetDeployment(statusID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.deploys.byID, statusID)
	s.deploys.order = slices.DeleteFunc(s.deploys.order, func(id string) bool { return id == statusID })
}
