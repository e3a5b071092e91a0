package sdk

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// DeploymentsService publishes a project's documentation (a deployment of
// its deployment branch), puts up previews of other branches, and follows
// either until it ends. Deployments share a budget with automation
// triggers (see [DeploymentLimit]); previews have their own (see
// [PreviewLimit]). A rate-limited trigger was not acted on: the
// SDK waits out a short Retry-After (up to WithMaxRetryAfter) and sends it
// again; a longer one fails at once with the time to retry.
type DeploymentsService struct {
	core *core
}

// DeploymentStatus is a deployment's status. A deployment is queued, then
// in_progress, then ends in success or failure.
type DeploymentStatus string

// The statuses the API documents.
const (
	DeploymentQueued     DeploymentStatus = "queued"
	DeploymentInProgress DeploymentStatus = "in_progress"
	DeploymentSuccess    DeploymentStatus = "success"
	DeploymentFailure    DeploymentStatus = "failure"
)

// Terminal reports whether the deployment has ended: success or failure.
// An unknown status is not terminal, so a waiter keeps polling rather than
// report a result the API did not give.
func (s DeploymentStatus) Terminal() bool { return s == DeploymentSuccess || s == DeploymentFailure }

// Known reports whether the status is one the API documents.
func (s DeploymentStatus) Known() bool {
	return s == DeploymentQueued || s == DeploymentInProgress || s.Terminal()
}

// DeploymentSource is what triggered a deployment. The API documents the
// values below; a newer API may send others, which are kept as they come.
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
// to follow it by, with Status and Wait.
type DeploymentStarted struct {
	StatusID string `json:"statusId"`
	ResponseInfo
}

// PreviewStarted is the API's answer to a preview trigger.
type PreviewStarted struct {
	StatusID string `json:"statusId"`
	// PreviewURL is where the preview is served: an absolute http(s) URL.
	// A redeploy of the same branch keeps it. It is "" when the answer
	// carried none the SDK could use (see Problems).
	PreviewURL string `json:"previewUrl"`
	// Problems name the fields of the answer the SDK could not use. The
	// preview was queued: its status id was in the answer.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a preview's answer needs beyond its status id (the
// call's to check: previewID): a web address to see it at.
func (p *PreviewStarted) check(c *checker) {
	c.nonEmpty("previewUrl", p.PreviewURL)
	if p.PreviewURL != "" && !c.link("previewUrl", p.PreviewURL) {
		p.PreviewURL = ""
	}
}

// Deployment is the status of a deployment or a preview, as the API's
// update-status endpoint reports it. Fields the answer did not carry are
// zero (nil for the nullable ones).
type Deployment struct {
	// ID is the status id (the API's _id).
	ID        string `json:"_id"`
	ProjectID string `json:"projectId"`
	// Status is "" when the answer carried none the SDK could read (see
	// Problems): not terminal, so a wait goes on.
	Status  DeploymentStatus `json:"status"`
	Summary string           `json:"summary"`
	// Logs are the deployment's log lines, oldest first.
	Logs      []string `json:"logs"`
	Subdomain string   `json:"subdomain"`
	// The screenshots of the docs, as the API gives them.
	Screenshot      string `json:"screenshot"`
	ScreenshotLight string `json:"screenshotLight"`
	ScreenshotDark  string `json:"screenshotDark"`
	// Author is nil when the API sent null or nothing.
	Author *DeploymentAuthor `json:"author"`
	// Commit is nil when the API sent no commit.
	Commit    *DeploymentCommit `json:"commit"`
	Source    DeploymentSource  `json:"source"`
	CreatedAt time.Time         `json:"createdAt"`
	// EndedAt is nil until the deployment ends.
	EndedAt *time.Time `json:"endedAt"`
	// Problems name the fields of the answer the SDK could not read, such
	// as `createdAt: want a string, got a number`. The deployment is still
	// the deployment: its id was in the answer. Show them; do not deploy
	// again because of them.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a deployment's status needs beyond its id (the call's to
// check: deploymentID): a status.
func (d *Deployment) check(c *checker) { c.nonEmpty("status", string(d.Status)) }

// DeploymentAuthor is who made the deployed change.
type DeploymentAuthor struct {
	Name      string `json:"name"`
	AvatarURL string `json:"avatarUrl"`
	// GitHubUserID is nil when the API sent none.
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

// LastLogs returns the deployment's last n log lines (all when it has
// fewer), for messages that must stay short.
func (d *Deployment) LastLogs(n int) []string {
	if n <= 0 || d == nil {
		return nil
	}
	return d.Logs[max(len(d.Logs)-n, 0):]
}

// ValidateStatusID checks a deployment's status id, by the same rule as a
// project id.
func ValidateStatusID(statusID string) error { return validateID("statusId", statusID) }

// ValidateBranch checks a Git branch name by Git's own rules (git
// check-ref-format --branch): not empty, no white space or control
// character, none of ~ ^ : ? * [ \, no "..", "@{" or "//", not starting
// with "-" or "/", not ending with "/", "." or ".lock", no part starting
// with ".", and not "@". A name breaking them cannot be a branch, so it is
// refused before the request.
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

// Trigger queues a deployment of the project's configured deployment
// branch, and returns its status id; follow it with Status or Wait.
//
// The request is never sent twice once it may have reached the server:
// only a 429 (not acted on) or a connection that never opened is sent
// again, so one call queues at most one deployment. A status id Status
// could not read back by (ValidateStatusID) is refused with an
// *UnusableIDError. When the call fails, MayHaveTakenEffect(err) says
// whether a deployment may still have been queued.
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

// Preview creates the preview deployment of a branch, or redeploys it when
// the branch already has one (under the same URL, with a new status id).
// Follow it with Status or Wait. A plan without previews answers 403
// (IsForbidden). Like Trigger, it is never sent twice.
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

// Status reads the status of a deployment or preview by its status id. An
// unknown id is a 404 (IsNotFound). An answer without an id, or for
// another status id, is a *MalformedResponseError; other odd fields are in
// the deployment's Problems.
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

// Wait polls a deployment's status until it is success or failure, and
// returns it; see the waiting rules of WaitOption (WithStatusCallback
// takes a func(*Deployment)). A failure is an answer, not an error: check
// Status. When ctx ends or the wait times out, it returns the last status
// it saw (nil if none) with the error.
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
