package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// hostileText is server text written to act on a terminal: a screen
// clear, a fake green "Apply complete!", a window title, a carriage
// return that overwrites the line, a right-to-left override and a line
// separator.
const hostileText = "\x1b[2J\x1b[32mApply complete!\x1b[0m\x1b]0;pwned\x07 over\rwritten \u202eevil\u2028next"

// rawTerminalText names what of hostileText must never be shown as is.
var rawTerminalText = []string{"\x1b", "\x07", "\r", "\u202e", "\u2028"}

// assertShownSafely fails when text, shown to a person, holds a terminal
// control or formatting character, or is longer than limit bytes.
func assertShownSafely(t *testing.T, what, text string, limit int) {
	t.Helper()
	for _, c := range rawTerminalText {
		if strings.Contains(text, c) {
			t.Errorf("%s shows %q raw: %q", what, c, text[:min(len(text), 300)])
		}
	}
	if len(text) > limit {
		t.Errorf("%s is %d bytes, more than %d", what, len(text), limit)
	}
}

// megabyteLine is a log line of 1 MiB, hostile text first.
func megabyteLine() string {
	return hostileText + strings.Repeat("x", 1<<20-len(hostileText))
}

// Every place the provider shows server text to a person escapes it and
// bounds it: twelve 1 MiB log lines made a 10 MiB error.
func TestServerText_isEscapedAndBoundedWhereShown(t *testing.T) {
	logs := make([]string, 12)
	for i := range logs {
		logs[i] = megabyteLine()
	}
	link := "https://github.com/a/b/pull/1" + hostileText
	failed := &sdk.Deployment{ID: "st_1", ProjectID: megabyteLine(), Status: sdk.DeploymentFailure, Summary: megabyteLine(), Logs: logs}
	// Bounds: a diagnostic's own words, plus what sdk.DisplayText shows at
	// most (MaxDisplayText runes of up to 10 bytes each, as escapes are).
	const bound = 2*sdk.MaxDisplayText*10 + 4096

	var diags diag.Diagnostics
	deploymentKind("deployment").outcome(failed, workWords{failed: "It stays in state."}, &diags)
	staticExportKind.outcome(&sdk.StaticExport{ID: "se_1", Status: sdk.StaticExportStatusFailed, Error: ptr(megabyteLine())}, workWords{}, &diags)
	agentJobKind.outcome(&sdk.AgentJob{ID: "job_1", Status: sdk.JobStatusArchived, PRLink: &link}, workWords{}, &diags)
	notes := newProblemNotes("agent job", "job_1"+hostileText)
	notes.add([]string{megabyteLine(), "status: " + hostileText})
	notes.warn(&diags)
	var listed listingNotes
	listed.add(&sdk.AgentSession{ID: "a\x1b[2Jb", Problems: []string{megabyteLine()}})
	listed.skipped = append(listed.skipped, quoted(megabyteLine()))
	listed.warn(&diags)
	if len(diags) != 6 {
		t.Fatalf("%d diagnostics: %v", len(diags), diags)
	}
	for _, d := range diags {
		assertShownSafely(t, d.Summary(), d.Summary()+": "+d.Detail(), bound)
	}
	// The failure still quotes the log's last lines, escaped.
	if text := diagText(diags, diag.SeverityError); !strings.Contains(text, `\x1b[2J\x1b[32mApply complete!`) || !strings.Contains(text, "Its last 10 log lines (of 12)") {
		t.Errorf("the failure does not quote the log, escaped: %.600q", text)
	}

	// Progress messages and display names.
	session := &sdk.AgentSession{ID: "job_1", Title: megabyteLine(), HaltReason: sdk.HaltReason(hostileText), CreatedAt: time.Now()}
	for what, text := range map[string]string{
		"a status":         describeStatus(hostileText),
		"an export":        describeExport(&sdk.StaticExport{Status: sdk.StaticExportStatus(megabyteLine())}),
		"a summary":        summaryOf(&sdk.Deployment{Summary: megabyteLine()}),
		"a preview's URL":  at("https://x.example" + megabyteLine()),
		"a link":           describeLink(&link),
		"a display name":   jobDisplayName(session),
		"a nameless job":   jobDisplayName(&sdk.AgentSession{ID: "a\x1b[2J", HaltReason: sdk.HaltReason(hostileText)}),
		"the export error": exportFailure(&sdk.StaticExport{Error: ptr(megabyteLine())}),
		"a failed export's bundle": func() string {
			summary, detail := bundleError("se_1", fmt.Errorf("creating the bundle of static export se_1: %w: %s", sdk.ErrStaticExportFailed, megabyteLine()))
			return summary + ": " + detail
		}(),
	} {
		assertShownSafely(t, what, text, 4*sdk.MaxDisplayLine*10)
	}
}

func ptr[T any](v T) *T { return &v }

// An odd field is the SDK's sentence (a request's path, two ids): it is
// escaped and bounded, but not cut at one quoted value's length.
func TestShownProblem_escapesAndBoundsWithoutCuttingTheSDKsSentences(t *testing.T) {
	sentence := "the API accepted the message, but its answer is not this job: malformed response to POST " +
		"/v2/agent/demo-project/job/910a2dec-8902-4cc1-8a2d-000000000001/message: id: the answer is for job " +
		`"someone-elses-job", not job "910a2dec-8902-4cc1-8a2d-000000000001"`
	if got := shownProblem(sentence); got != sentence {
		t.Errorf("a plain sentence of %d runes became %q", len(sentence), got)
	}
	if got, want := shownProblem("status: "+hostileText), "status: "+sdk.DisplayLine(hostileText); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	long := shownProblem(strings.Repeat("\x1b", 5000))
	if n := utf8.RuneCountInString(long); n != maxProblemRunes*4+1 || !strings.HasSuffix(long, `\x1b…`) || strings.Contains(long, "\x1b") {
		t.Errorf("%d runes: %.80q", n, long)
	}
	if got := shownProblem(strings.Repeat("é", maxProblemRunes)); got != strings.Repeat("é", maxProblemRunes) {
		t.Errorf("a problem of exactly the bound was cut: %d runes", utf8.RuneCountInString(got))
	}
	if got := shownProblem("bad \xff byte"); got != `bad \xff byte` {
		t.Errorf("got %q", got)
	}
	many := make([]string, 25)
	for i := range many {
		many[i] = "p"
	}
	if got := problemList(many); got != strings.Repeat("p; ", 10)+"and 15 more" {
		t.Errorf("got %q", got)
	}
}
