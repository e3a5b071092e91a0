package mintlifytest

import (
	"net/http"
	"slices"
	"strings"
)

// Routes, as counted by Requests, logged in LoggedRequest.Route and matched
// by Fault.Route. Each is its pattern: the method and the path as the
// OpenAPI file writes it, with {wildcards}. Each is named after the SDK's
// call that sends it: Route, then the call's service, then its method
// (see the package's documentation, "Routes").

// RouteAgentJobsCreate is the route of the SDK's AgentJobs.Create.
const RouteAgentJobsCreate = "POST /v2/agent/{projectId}/job"

// RouteAgentJobsGet is the route of the SDK's AgentJobs.Get (and AgentJobs.Wait).
const RouteAgentJobsGet = "GET /v2/agent/{projectId}/job/{id}"

// RouteAgentJobsSendMessage is the route of the SDK's AgentJobs.SendMessage.
const RouteAgentJobsSendMessage = "POST /v2/agent/{projectId}/job/{id}/message"

// RouteAgentJobsSessions is the route of the SDK's AgentJobs.Sessions: the deprecated
// v1 listing, the API's only listing of jobs.
const RouteAgentJobsSessions = "GET /v1/agent/{projectId}/jobs"

// RouteAnalyticsVisitors is the route of the SDK's Analytics.Visitors.
const RouteAnalyticsVisitors = "GET /v1/analytics/{projectId}/visitors"

// RouteAnalyticsViews is the route of the SDK's Analytics.Views.
const RouteAnalyticsViews = "GET /v1/analytics/{projectId}/views"

// RouteAnalyticsSearches is the route of the SDK's Analytics.Searches.
const RouteAnalyticsSearches = "GET /v1/analytics/{projectId}/searches"

// RouteAnalyticsFeedback is the route of the SDK's Analytics.Feedback.
const RouteAnalyticsFeedback = "GET /v1/analytics/{projectId}/feedback"

// RouteAnalyticsFeedbackByPage is the route of the SDK's Analytics.FeedbackByPage:
// feedback counts per page (no paging).
const RouteAnalyticsFeedbackByPage = "GET /v1/analytics/{projectId}/feedback/by-page"

// RouteAnalyticsConversations is the route of the SDK's Analytics.Conversations: the
// assistant's conversations.
const RouteAnalyticsConversations = "GET /v1/analytics/{projectId}/assistant"

// RouteAnalyticsThread is the route of the SDK's Analytics.Thread.
const RouteAnalyticsThread = "GET /v1/analytics/{projectId}/assistant/threads/{threadId}"

// RouteAnalyticsCallerStats is the route of the SDK's Analytics.CallerStats.
const RouteAnalyticsCallerStats = "GET /v1/analytics/{projectId}/assistant/caller-stats"

// RouteDeploymentsTrigger is the route of the SDK's Deployments.Trigger: it
// queues a deployment.
const RouteDeploymentsTrigger = "POST /v1/project/update/{projectId}"

// RouteDeploymentsStatus is the route of the SDK's Deployments.Status (and
// Deployments.Wait): the status of a deployment or a preview.
const RouteDeploymentsStatus = "GET /v1/project/update-status/{statusId}"

// RouteDeploymentsPreview is the route of the SDK's Deployments.Preview.
const RouteDeploymentsPreview = "POST /v1/project/preview/{projectId}"

// RouteAutomationsTrigger is the route of the SDK's Automations.Trigger.
const RouteAutomationsTrigger = "POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger"

// RouteStaticExportsStart is the route of the SDK's StaticExports.Start.
const RouteStaticExportsStart = "POST /v1/static-export/jobs"

// RouteStaticExportsGet is the route of the SDK's StaticExports.Get (and
// StaticExports.Wait).
const RouteStaticExportsGet = "GET /v1/static-export/jobs/{jobId}"

// RouteStaticExportsCreateBundle is the route of the SDK's StaticExports.CreateBundle.
const RouteStaticExportsCreateBundle = "POST /v1/static-export/jobs/{jobId}/bundle"

// RouteStaticExportsDownloadBundle is the route of the SDK's
// StaticExports.DownloadBundle: where
// bundle links point. The fake serves the archives itself, as object
// storage would (no key: the link's signature is the credential). It is
// not part of the API.
const RouteStaticExportsDownloadBundle = "GET /_bundles/{jobId}/bundle.tar.gz"

// RouteUnmatched is the Route of a request no route matched: it is
// counted and logged like the others, and answered 404.
const RouteUnmatched = "unmatched"

// The API areas, as RouteInfo.Area names them: one per OpenAPI file (or
// part of one) the fake serves.
const (
	areaJobs          = "jobs"           // agent jobs (admin-openapi.json)
	areaAnalytics     = "analytics"      // the analytics export (analytics.openapi.json)
	areaDiscovery     = "discovery"      // search, pages, the assistant (discovery-openapi.json), under /discovery
	areaIndex         = "index"          // Mintlify Index (index-openapi.json), under /api/universal-search
	areaStaticExports = "static-exports" // static-export-openapi.json, and the bundles' downloads
	areaDeployments   = "deployments"    // deployments, previews and automations (openapi.json)
)

// routeTable is every route the fake serves, each named once: New
// registers them, Routes and the command's -fault route=NAME read them.
//
// To add a route:
//
//  1. declare its Route constant above (its pattern, as the OpenAPI file
//     writes the path);
//  2. add one entry below, in its area's section: a short name (lower
//     case, dashes: what `mintlify-fake -fault ...,route=NAME` takes), the
//     pattern, the area, the budgets it draws from (see Budget; none when
//     the API publishes no limit for it), its handler, and stream: true if
//     it writes its answer as it goes;
//  3. write the handler in the area's own file (deployments.go, ...).
//
// A handler is called after the key was checked (401; 403 for a read-only
// key on anything but GET and HEAD), the project found when the pattern
// has a {projectId} (404 otherwise), and one request taken from each of
// the route's budgets (429 when one is spent). It reads path values with
// r.PathValue and answers with writeJSON or writeError. It runs with the
// fake locked, and what it writes is sent once it returns, unlocked;
// unless the route sets stream (assistant messages, bundle downloads):
// then it runs unlocked (it locks s.mu itself around the fake's state) and
// writes to the client as it goes, flushing when it wants a part sent.
// Faults, the request log, request ids and counters need nothing from it.
//
// To add a budget, see budgetSpecs.
var routeTable = []route{
	// Agent jobs (admin-openapi.json): jobs.go.
	{name: "create-job", pattern: RouteAgentJobsCreate, area: areaJobs, budgets: []string{budgetAgentJobs}, serve: (*Fake).createJob},
	{name: "get-job", pattern: RouteAgentJobsGet, area: areaJobs, serve: (*Fake).getJob},
	{name: "message", pattern: RouteAgentJobsSendMessage, area: areaJobs, budgets: []string{budgetAgentJobs}, serve: (*Fake).sendMessage},
	{name: "list-jobs", pattern: RouteAgentJobsSessions, area: areaJobs, serve: (*Fake).listJobs}, // sessions.go; reads have no published limit

	// Analytics (analytics.openapi.json): analytics.go, searches.go,
	// feedback.go, assistant.go. export is the whole answer Data gives.
	{name: "visitors", pattern: RouteAnalyticsVisitors, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveVisitors), export: exportVisitors},
	{name: "views", pattern: RouteAnalyticsViews, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveViews), export: exportViews},
	{name: "searches", pattern: RouteAnalyticsSearches, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveSearches), export: exportSearches},
	{name: "feedback", pattern: RouteAnalyticsFeedback, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveFeedback), export: exportFeedback},
	{name: "feedback-by-page", pattern: RouteAnalyticsFeedbackByPage, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveFeedbackByPage), export: exportFeedbackByPage},
	{name: "assistant", pattern: RouteAnalyticsConversations, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveAssistant), export: exportAssistant},
	{name: "thread", pattern: RouteAnalyticsThread, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveThread), export: exportThread},
	{name: "caller-stats", pattern: RouteAnalyticsCallerStats, area: areaAnalytics, budgets: []string{budgetAnalytics}, serve: analytics(serveCallerStats), export: exportCallerStats},

	// Deployments, previews and automations (openapi.json): deployments.go.
	// Trigger update and automation triggers: budgetDeployments; previews:
	// budgetPreviews; update status: none.
	{name: "trigger-update", pattern: RouteDeploymentsTrigger, area: areaDeployments, budgets: []string{budgetDeployments}, serve: (*Fake).triggerUpdate},
	{name: "update-status", pattern: RouteDeploymentsStatus, area: areaDeployments, serve: (*Fake).updateStatus},
	{name: "preview", pattern: RouteDeploymentsPreview, area: areaDeployments, budgets: []string{budgetPreviews}, serve: (*Fake).triggerPreview},
	{name: "trigger-automation", pattern: RouteAutomationsTrigger, area: areaDeployments, budgets: []string{budgetDeployments}, serve: (*Fake).triggerAutomation},

	// Static exports (static-export-openapi.json): static_exports.go. No
	// published limit.
	{name: "start-export", pattern: RouteStaticExportsStart, area: areaStaticExports, serve: (*Fake).startStaticExport},
	{name: "get-export", pattern: RouteStaticExportsGet, area: areaStaticExports, serve: (*Fake).getStaticExport},
	{name: "bundle", pattern: RouteStaticExportsCreateBundle, area: areaStaticExports, serve: (*Fake).createBundle},
	{name: "download", pattern: RouteStaticExportsDownloadBundle, area: areaStaticExports, serve: (*Fake).downloadBundle, stream: true, keyless: true},

	// Discovery: search, page, assistant (discovery-openapi.json):
	// discovery.go. budgetDiscovery.
	{name: "search", pattern: RouteDiscoverySearch, area: areaDiscovery, budgets: []string{budgetDiscovery}, serve: (*Fake).discoverySearch},
	{name: "page", pattern: RouteDiscoveryPage, area: areaDiscovery, budgets: []string{budgetDiscovery}, serve: (*Fake).discoveryPage},
	{name: "assistant-message", pattern: RouteAssistantStream, area: areaDiscovery, budgets: []string{budgetDiscovery}, serve: (*Fake).assistantV2, stream: true},
	{name: "assistant-message-v1", pattern: RouteAssistantStreamV1, area: areaDiscovery, budgets: []string{budgetDiscovery}, serve: (*Fake).assistantV1, stream: true},

	// Mintlify Index (index-openapi.json): index.go. budgetIndexSecond and
	// budgetIndexDay, both.
	{name: "index-search", pattern: RouteIndexSearch, area: areaIndex, budgets: []string{budgetIndexSecond, budgetIndexDay}, serve: (*Fake).indexSearch},
	{name: "index-context", pattern: RouteIndexContext, area: areaIndex, budgets: []string{budgetIndexSecond, budgetIndexDay}, serve: (*Fake).indexContext},
	{name: "index-contents", pattern: RouteIndexContents, area: areaIndex, budgets: []string{budgetIndexSecond, budgetIndexDay}, serve: (*Fake).indexContents},
}

// route is one operation of the API.
type route struct {
	name    string
	pattern string
	area    string
	budgets []string
	serve   handler
	// export is an analytics route's whole answer, for Data.
	export func(p *params, d *dataset) any
	// stream: the handler writes its answer as it goes, unlocked.
	stream bool
	// keyless: no key is checked (nor budget spent): the request carries
	// its own credential, as a presigned link does.
	keyless bool
	// wildcards are the pattern's path values, in order (set by New).
	wildcards []string
}

// handler serves a route; see routeTable. org is the key's organization;
// p is the project when the pattern has a {projectId}, else nil. w is a
// recorder, or for a streaming route the client's writer.
type handler func(s *Fake, w http.ResponseWriter, r *http.Request, org string, p *project)

// unmatched serves requests no route matched.
var unmatched = route{pattern: RouteUnmatched}

// wildcards lists the {names} in a pattern.
func wildcards(pattern string) []string {
	var names []string
	for _, seg := range strings.Split(pattern, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			names = append(names, strings.TrimSuffix(strings.TrimSuffix(name, "}"), "..."))
		}
	}
	return names
}

// RouteInfo describes a route the fake serves.
type RouteInfo struct {
	// Name is the route's short name, as `mintlify-fake -fault
	// ...,route=NAME` takes it: "create-job", "visitors", ...
	Name string
	// Pattern is the route's Route constant.
	Pattern string
	// Area is the API area, one per OpenAPI file (or part of one): jobs,
	// analytics, deployments, static-exports, discovery or index.
	Area string
	// Budgets are the names of the rate limits each request draws from
	// (see Budget).
	Budgets []string
}

// Routes lists every route the fake serves, area by area.
func Routes() []RouteInfo {
	out := make([]RouteInfo, len(routeTable))
	for i, rt := range routeTable {
		out[i] = RouteInfo{Name: rt.name, Pattern: rt.pattern, Area: rt.area, Budgets: slices.Clone(rt.budgets)}
	}
	return out
}

// routeByPattern finds a route by its Route constant.
func routeByPattern(pattern string) *route {
	for i := range routeTable {
		if routeTable[i].pattern == pattern {
			return &routeTable[i]
		}
	}
	return nil
}
