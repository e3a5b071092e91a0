package sdk

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// DeploymentsService publishes a project's documentation (its deployment
// branch), puts up previews of other branches, and follows either until
// it ends. Deployments share [DeploymentLimit] with automation triggers;
// previews have [PreviewLimit]. A rate-limited trigger was not acted on:
// a short Retry-After is waited out and the trigger sent again.
type DeploymentsService struct {
	core *core
}

// DeploymentStatus is a deployment's status: queued, in_progress, then
// success or failure.
type DeploymentStatus string

// The statuses the API documents.
const (
	DeploymentQueued     DeploymentStatus = "queued"
	DeploymentInProgress DeploymentStatus = "in_progress"
	DeploymentSuccess    DeploymentStatus = "success"
	DeploymentFailure    DeploymentStatus = "failure"
)

// Terminal reports whether the deployment has ended: success or failure
// (an unknown status is not).
func (s DeploymentStatus) Terminal() bool { return s == DeploymentSuccess || s == DeploymentFailure }

// Known reports whether the status is one the API documents.
func (s DeploymentStatus) Known() bool {
	return s == DeploymentQueued || s == DeploymentInProgress || s.Terminal()
}

// DeploymentSource is what triggered a deployment: one of the values
// below, or a newer one kept as it came.
type DeploymentSource string

// The sources the API documents.
const (
	DeploymentSourceInternal              DeploymentSource = "internal"
	DeploymentSourceGitHubAppInstallation DeploymentSource = "github-app-installation"
	DeploymentSourceAPI                   DeploymentSource = "api"
	DeploymentSourceGitHub                DeploymentSource = "github"
	DeploymentSourceDashboard             DeploymentSource = "dashboard"
	DeploymentSourceGitLab                DeploymentSource = "gitlab"
	DeploymentSourceOnboarding            DeploymentSource = "onboarding"
)

// Known reports whether the source is one the API documents.
func (s DeploymentSource) Known() bool {
	switch s {
	case DeploymentSourceInternal, DeploymentSourceGitHubAppInstallation, DeploymentSourceAPI, DeploymentSourceGitHub,
		DeploymentSourceDashboard, DeploymentSourceGitLab, DeploymentSourceOnboarding:
		return true
	}
	return false
}

// DeploymentStarted is the API's answer to a deployment trigger: the id
// Status and Wait follow it by.
type DeploymentStarted struct {
	StatusID string `json:"statusId"`
	ResponseInfo
}

// PreviewStarted is the API's answer to a preview trigger.
type PreviewStarted struct {
	StatusID string `json:"statusId"`
	// PreviewURL is where the preview is served (kept by a redeploy of the
	// branch); "" when the answer had none the SDK could use.
	PreviewURL string `json:"previewUrl"`
	// Problems name the fields the SDK could not use; the preview was
	// queued.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a preview needs beyond its status id (previewID).
func (p *PreviewStarted) check(c *checker) {
	c.nonEmpty("previewUrl", p.PreviewURL)
	if p.PreviewURL != "" && !c.link("previewUrl", p.PreviewURL) {
		p.PreviewURL = ""
	}
}

// Deployment is the status of a deployment or a preview. Fields the
// answer did not carry are zero or nil.
type Deployment struct {
	ID        string `json:"_id"` // the status id
	ProjectID string `json:"projectId"`
	// Status is "" when the answer had none the SDK could read: not
	// terminal, so a wait goes on.
	Status          DeploymentStatus  `json:"status"`
	Summary         string            `json:"summary"`
	Logs            []string          `json:"logs"` // oldest first
	Subdomain       string            `json:"subdomain"`
	Screenshot      string            `json:"screenshot"`
	ScreenshotLight string            `json:"screenshotLight"`
	ScreenshotDark  string            `json:"screenshotDark"`
	Author          *DeploymentAuthor `json:"author"`
	Commit          *DeploymentCommit `json:"commit"`
	Source          DeploymentSource  `json:"source"`
	CreatedAt       time.Time         `json:"createdAt"`
	EndedAt         *time.Time        `json:"endedAt"` // nil until it ends
	// Problems name the fields the SDK could not read (`createdAt: want a
	// string, got a number`). Show them; do not deploy again for them.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a deployment needs beyond its id (deploymentID).
func (d *Deployment) check(c *checker) { c.nonEmpty("status", string(d.Status)) }

// DeploymentAuthor is who made the deployed change.
type DeploymentAuthor struct {
	Name         string `json:"name"`
	AvatarURL    string `json:"avatarUrl"`
	GitHubUserID *int64 `json:"githubUserId"`
}

// DeploymentCommit is the commit a deployment built.
type DeploymentCommit struct {
	SHA          string       `json:"sha"`
	Ref          string       `json:"ref"`
	Message      string       `json:"message"`
	FilesChanged FilesChanged `json:"filesChanged"`
}

// FilesChanged lists the files a deployed commit added, modified and removed.
type FilesChanged struct {
	Added    []string `json:"added"`
	Modified []string `json:"modified"`
	Removed  []string `json:"removed"`
}

// LastLogs returns the deployment's last n log lines (all, when fewer).
func (d *Deployment) LastLogs(n int) []string {
	if n <= 0 || d == nil {
		return nil
	}
	return d.Logs[max(len(d.Logs)-n, 0):]
}

// ValidateStatusID checks a deployment's status id (ValidateProjectID).
func ValidateStatusID(statusID string) error { return validateID("statusId", statusID) }

// ValidateBranch checks a Git branch name by git check-ref-format
// --branch: not empty, no white space or control character, none of
// ~ ^ : ? * [ \, no "..", "@{" or "//", not starting with "-" or "/", not
// ending with "/", "." or ".lock", no part starting with ".", not "@".
func ValidateBranch(branch string) error {
	if branch == "" {
		return &ValidationError{Field: "branch", Rule: "is required"}
	}
	refuse := func(rule string) error { return &ValidationError{Field: "branch", Value: branch, Rule: rule} }
	for _, r := range branch {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			return refuse("contains white space (often a trailing newline): a branch name cannot")
		case r < ' ' || r == 0x7f:
			return refuse("contains a control character: a branch name cannot")
		case strings.ContainsRune(`~^:?*[\`, r):
			return refuse(`contains one of ~ ^ : ? * [ \: a branch name cannot`)
		}
	}
	switch {
	case branch == "@":
		return refuse(`is "@", which Git does not allow as a branch name`)
	case strings.Contains(branch, ".."), strings.Contains(branch, "@{"), strings.Contains(branch, "//"):
		return refuse(`contains "..", "@{" or "//": a branch name cannot`)
	case strings.HasPrefix(branch, "-"), strings.HasPrefix(branch, "/"), strings.HasSuffix(branch, "/"):
		return refuse(`starts with "-" or "/", or ends with "/": a branch name cannot`)
	case strings.HasSuffix(branch, "."), strings.HasSuffix(branch, ".lock"):
		return refuse(`ends with "." or ".lock": a branch name cannot`)
	}
	for _, part := range strings.Split(branch, "/") {
		if strings.HasPrefix(part, ".") {
			return refuse(`has a part starting with ".": a branch name cannot`)
		}
	}
	return nil
}

// Trigger queues a deployment of the project's deployment branch, and
// returns its status id; follow it with Status or Wait. Like
// AgentJobs.Create, it is never sent twice, and a status id Status could
// not read back is an *UnusableIDError.
func (s *DeploymentsService) Trigger(ctx context.Context, projectID string) (*DeploymentStarted, error) {
	k, err := checked(s.core, ValidateProjectID(projectID))
	if err != nil {
		return nil, err
	}
	c := call{method: http.MethodPost, path: escapePath("v1", "project", "update", projectID)}
	started, err := answerTo(ctx, k, c, func(d *DeploymentStarted) error { return triggeredID.checkNew(k, c, d.ResponseInfo, d.StatusID, nil) })
	if err != nil {
		return nil, fmt.Errorf("triggering a deployment of project %s: %w", projectID, err)
	}
	return started, nil
}

type branchBody struct {
	Branch string `json:"branch"`
}

// Preview creates the preview deployment of a branch, or redeploys one
// (same URL, new status id); follow it with Status or Wait. A plan without
// previews answers 403 (IsForbidden). Like Trigger, it is never sent
// twice.
func (s *DeploymentsService) Preview(ctx context.Context, projectID, branch string) (*PreviewStarted, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), ValidateBranch(branch))
	if err != nil {
		return nil, err
	}
	c := call{method: http.MethodPost, path: escapePath("v1", "project", "preview", projectID), body: branchBody{branch}}
	started, err := answerTo(ctx, k, c, func(p *PreviewStarted) error { return previewID.checkNew(k, c, p.ResponseInfo, p.StatusID, p.Problems) })
	if err != nil {
		return nil, fmt.Errorf("triggering a preview of branch %q of project %s: %w", branch, projectID, err)
	}
	return started, nil
}

// Status reads a deployment's or preview's status. An unknown id is a 404
// (IsNotFound); an answer without an id, or another's, is a
// *MalformedResponseError.
func (s *DeploymentsService) Status(ctx context.Context, statusID string) (*Deployment, error) {
	k, err := checked(s.core, ValidateStatusID(statusID))
	if err != nil {
		return nil, err
	}
	c := get(escapePath("v1", "project", "update-status", statusID), nil)
	d, err := answerTo(ctx, k, c, func(d *Deployment) error { return deploymentID.check(k, c, d.ID, statusID, d.Problems) })
	if err != nil {
		return nil, fmt.Errorf("getting deployment status %s: %w", statusID, err)
	}
	return d, nil
}

// Wait polls a deployment's status until success or failure, and returns
// it (WaitOption's rules). A failure is an answer, not an error. When ctx
// ends or the wait times out, it returns the last status seen with the
// error.
func (s *DeploymentsService) Wait(ctx context.Context, statusID string, opts ...WaitOption) (*Deployment, error) {
	if _, err := checked(s.core, ValidateStatusID(statusID)); err != nil {
		return nil, err
	}
	return poll(ctx, s.core, poller[*Deployment]{
		what:     "deployment " + statusID,
		read:     func(ctx context.Context) (*Deployment, error) { return s.Status(ctx, statusID) },
		terminal: func(d *Deployment) bool { return d.Status.Terminal() },
	}, opts)
}
