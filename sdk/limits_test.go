package sdk_test

import (
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The API's limits in words, as descriptions and advice say them.
func TestLimits_inWords(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{sdk.AgentJobLimit.String(), "100 per project per hour"},
		{sdk.AnalyticsLimit.String(), "100 per organization per hour"},
		{sdk.AnalyticsLimit.Of("requests"), "100 requests per organization per hour"},
		{sdk.DeploymentLimit.String(), "10 per organization per 10 seconds"},
		{sdk.PreviewLimit.String(), "5 per organization per minute"},
		{sdk.DiscoveryLimit.Of("requests"), "10,000 requests per organization per hour"},
		{sdk.AssistantMessageLimit.String(), "10,000 per IP per day"},
		{sdk.IndexSecondLimit.String(), "10 per organization per second"},
		{sdk.IndexDayLimit.String(), "1,000 per organization per day"},
		{sdk.Limit{Requests: 1_234_567, Scope: "key", Window: 90 * time.Minute}.String(), "1,234,567 per key per 90 minutes"},
		{sdk.Limit{Requests: 999, Scope: "key", Window: 48 * time.Hour}.String(), "999 per key per 2 days"},
		{sdk.Limit{Requests: 1000, Scope: "key", Window: 1500 * time.Millisecond}.String(), "1,000 per key per 1.5s"},
		{sdk.Limit{Requests: -1000, Scope: "key", Window: time.Hour}.String(), "-1,000 per key per hour"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}

// The SDK's limits and the fake's budgets are both written from the API's
// documentation, apart: they must agree, or one of them misreads it.
func TestLimits_agreeWithTheFakesBudgets(t *testing.T) {
	budgets := map[string]mintlifytest.Budget{}
	for _, b := range mintlifytest.Budgets() {
		budgets[b.Name] = b
	}
	for budget, l := range map[string]sdk.Limit{
		"agent-jobs":   sdk.AgentJobLimit,
		"analytics":    sdk.AnalyticsLimit,
		"deployments":  sdk.DeploymentLimit,
		"previews":     sdk.PreviewLimit,
		"discovery":    sdk.DiscoveryLimit,
		"index-second": sdk.IndexSecondLimit,
		"index-day":    sdk.IndexDayLimit,
	} {
		b, ok := budgets[budget]
		if !ok {
			t.Errorf("the fake has no budget %s", budget)
			continue
		}
		if b.Limit != l.Requests || b.Window != l.Window || b.PerProject != (l.Scope == "project") {
			t.Errorf("%s: the fake allows %d per %s (per project: %t); the SDK says %s", budget, b.Limit, b.Window, b.PerProject, l)
		}
	}
}
