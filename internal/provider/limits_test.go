package provider

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// limitTable is sdk/limits.go's table, by name, for the tests below.
var limitTable = map[string]sdk.Limit{
	"AgentJobLimit":         sdk.AgentJobLimit,
	"AnalyticsLimit":        sdk.AnalyticsLimit,
	"DeploymentLimit":       sdk.DeploymentLimit,
	"PreviewLimit":          sdk.PreviewLimit,
	"DiscoveryLimit":        sdk.DiscoveryLimit,
	"AssistantMessageLimit": sdk.AssistantMessageLimit,
	"IndexSecondLimit":      sdk.IndexSecondLimit,
	"IndexDayLimit":         sdk.IndexDayLimit,
}

// statedLimit finds a rate limit said in prose: a figure, up to five words
// (which may name the scope), then its window: "100 per organization per
// hour", "100 creations and messages per project per hour", "more than 10
// deployments and runs in 10 seconds", "100 an hour".
var statedLimit = regexp.MustCompile(`\b(\d{1,3}(?:,\d{3})+|\d+)\s+((?:[A-Za-z-]+\s+){0,5}?)(?:per|an|a|every|in|of the)\s+(?:(\d+)\s+)?(hour|minute|second|day)s?\b`)

// dataRate tells a figure of bytes from one of requests.
var dataRate = regexp.MustCompile(`(?i)\b([KMG]i?B|bytes?)\b`)

// statedLimitAfter finds a limit said window first: "the whole hourly
// budget of 100".
var statedLimitAfter = regexp.MustCompile(`\b(hour|dai)ly\s+((?:[A-Za-z-]+\s+){0,3}?)(?:of|is)\s+(\d{1,3}(?:,\d{3})+|\d+)\b`)

// limitsStated returns each limit text states that is not one of the
// table's, in words, and the names of the table's limits it states.
func limitsStated(text string) (wrong []string, named []string) {
	text = strings.Join(strings.Fields(strings.ReplaceAll(text, "**", "")), " ")
	matches := statedLimit.FindAllStringSubmatch(text, -1)
	for _, m := range statedLimitAfter.FindAllStringSubmatch(text, -1) {
		// In statedLimit's groups: figure, words, count, window.
		matches = append(matches, []string{m[0], m[3], m[2], "", map[string]string{"hour": "hour", "dai": "day"}[m[1]]})
	}
	for _, m := range matches {
		if dataRate.MatchString(m[2]) {
			continue // a rate of bytes ("1 KiB a second"), not of requests
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		count := 1
		if m[3] != "" {
			count, _ = strconv.Atoi(m[3])
		}
		window := time.Duration(count) * map[string]time.Duration{"hour": time.Hour, "minute": time.Minute, "second": time.Second, "day": 24 * time.Hour}[m[4]]
		scope := ""
		for _, s := range []string{"organization", "project", "IP"} {
			if slices.Contains(strings.Fields(m[2]), s) {
				scope = s
			}
		}
		var found []string
		for name, l := range limitTable {
			if l.Requests == n && l.Window == window && (scope == "" || scope == l.Scope) {
				found = append(found, name)
			}
		}
		if len(found) == 0 {
			wrong = append(wrong, m[0])
		}
		named = append(named, found...)
	}
	return wrong, named
}

// The registry docs say the API's limits in prose, for users: every figure
// they give must be the table's (sdk/limits.go), in its window and, where
// they name one, its scope; and each limit the provider spends is said
// somewhere.
func TestLimits_docsAgreeWithTheTable(t *testing.T) {
	root := filepath.Join("..", "..")
	said := map[string]bool{}
	for _, dir := range []string{"docs", "templates"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".tmpl") {
				return err
			}
			text, err := os.ReadFile(path) //nolint:gosec // the repository's own files
			if err != nil {
				return err
			}
			wrong, named := limitsStated(string(text))
			for _, w := range wrong {
				t.Errorf("%s: %q is none of the API's limits in sdk/limits.go", path, w)
			}
			for _, n := range named {
				said[n] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"AgentJobLimit", "AnalyticsLimit", "DeploymentLimit", "PreviewLimit", "DiscoveryLimit"} {
		if !said[name] {
			t.Errorf("the docs never say sdk.%s (%s)", name, limitTable[name])
		}
	}
}

// Go code says a limit through the table (sdk.AnalyticsLimit.String(), or
// "see [AnalyticsLimit]" in a doc comment), never as a figure of its own
// that could drift from it.
func TestLimits_goCodeSaysThemThroughTheTable(t *testing.T) {
	var files []string
	for _, glob := range []string{"*.go", filepath.Join("..", "..", "sdk", "*.go")} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d files", len(files))
	}
	for _, path := range files {
		base := filepath.Base(path)
		if strings.HasSuffix(base, "_test.go") || base == "limits.go" {
			continue
		}
		text, err := os.ReadFile(path) //nolint:gosec // the repository's own files
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(text), "\n") {
			if wrong, named := limitsStated(line); len(wrong)+len(named) > 0 {
				t.Errorf("%s states a limit as a figure: %q (say it through sdk/limits.go's table)", path, strings.TrimSpace(line))
			}
		}
	}
}

// The check itself: a figure off the table is caught, one on it is not,
// and a scope or window that differs is caught.
func TestLimits_statedLimitIsCaught(t *testing.T) {
	for text, want := range map[string]bool{
		"Analytics: **100 per organization\nper hour**.":            true,
		"at most 100 requests of the hour":                          true,
		"more than 10 deployments and runs in 10 seconds":           true,
		"previews 5 per minute":                                     true,
		"10,000 requests per organization per hour":                 true,
		"100 creations and messages per project per hour":           true,
		"1,000 per organization per day":                            true,
		"120 requests per organization per hour":                    false,
		"100 per project per minute":                                false,
		"100 per IP per hour":                                       false,
		"10 requests per second per organization, 5 per 10 seconds": false,
		"9,000 an hour":                                             false,
		"the organization's whole hourly budget of 100":             true,
		"the project's daily budget of 100":                         false,
	} {
		wrong, named := limitsStated(text)
		if got := len(wrong) == 0 && len(named) > 0; got != want {
			t.Errorf("%q: off the table %q, on it %q; want agreeing %t", text, wrong, named, want)
		}
	}
	if wrong, named := limitsStated("a cache_ttl of 1h; 250 rows a page; after 6 seconds, again; less than 1 KiB a second; 64 bytes a second"); len(wrong)+len(named) != 0 {
		t.Errorf("not limits: %q %q", wrong, named)
	}
}
