// Package mintlifytest is an in-memory fake of Mintlify's platform API, for
// testing code that uses the Mintlify SDK (or any other client) without an
// account, a key or a network: what net/http/httptest is to HTTP handlers,
// and a test kit around it, as pstest is to Pub/Sub.
//
// It models agent jobs (create, get, follow-up messages, scripted outcomes
// on a clock you control), the analytics export (deterministic data sets
// or rows you give, for every endpoint, with dates, filters and paging),
// and a documentation site's search, pages, streamed assistant and Index,
// with the API's authentication, error bodies and published rate limits.
//
// # Reaching it
//
// New returns the fake as an http.Handler. Its Client (or Transport)
// serves requests straight from it, in process: no socket, no port. Any
// base URL reaches it (the SDK wants https off loopback):
//
//	f := mintlifytest.New(mintlifytest.Config{})
//	client, err := sdk.NewClient(mintlifytest.DemoAPIKey,
//		sdk.WithBaseURL("https://mintlify.test"), sdk.WithHTTPClient(f.Client()))
//
// The in-process client streams (a read waits for the handler's next
// write), honors the request's context, and shows dropped, reset and
// stalled connections as a client on the wire sees them. It uses no real
// timer or socket, so it works inside a testing/synctest bubble: create the
// Fake inside the bubble, and a job scripted to run for hours completes in
// no wall time. NewServer starts the same fake on a loopback port, for
// clients that need a URL (a subprocess, terraform).
//
// # Time
//
// Config.Clock is the fake's clock: job lifecycles and rate-limit windows
// read it. A ManualClock moves only when told to (Advance), or when a
// client sleeps through it: its Sleep(ctx, d) advances it at once, so one
// clock drives both the fake and a client whose clock is anything with Now
// and Sleep (the SDK's is). Without a clock the fake reads time.Now, which
// a synctest bubble fakes.
//
// # What was sent
//
// RequestLog lists every request received, in order: route, method, path,
// query, body (its first 64 KiB), path values, the key's
// organization (never the key), User-Agent, the request id and status it
// answered, the fault that hit it, and its time on the fake's clock.
// RequestsTo filters it by route; Requests and TotalRequests count.
// JobRecord gives a job's prompt and the follow-up messages it accepted,
// each with its time, so a test can assert what a follow-up said. Every
// answer, errors and faults included, carries an X-Request-Id
// ("req_0000001", counting up), as the log does.
//
// # What is there
//
// A job's prompt chooses its script: "[fake:failed]", "[fake:nochange]",
// "[fake:archived]", "[fake:never]", "[fake:completed]" and
// "[fake:active=30s]" (see JobScript); Config.DefaultJob scripts the rest.
// SeedJob puts in a job as it is (id, status, prompt, PR link, times);
// CreateJob creates one as if from the dashboard; Job and JobIDs read them.
//
// A project's analytics are generated from its Dataset (Config.Analytics,
// AddProject), or given row by row with SeedRows (see Rows for how dates
// select seeded rows). The endpoints serve either with their own order,
// filters, limits, cursors and 400s. Readers return an endpoint's whole
// answer, unpaged, to compare with what a client read page by page:
// VisitorsData, ViewsData, SearchesData, FeedbackData, FeedbackByPageData,
// ConversationsData, ThreadData, CallerStatsData, and Data (any of them as
// JSON).
//
// # Search, pages, the assistant and the Index
//
// The fake serves every API on one host, each under its server's path:
// the admin API at the root, the discovery API under /discovery and
// Mintlify Index under /api/universal-search. So one fake URL gives every
// base URL:
//
//	docs, err := sdk.NewDiscoveryClient(mintlifytest.DemoAssistantKey, sdk.WithBaseURL(srv.URL+"/discovery"))
//	index, err := sdk.NewIndexClient(mintlifytest.DemoIndexKey, sdk.WithBaseURL(srv.URL+"/api/universal-search"))
//
// Each API takes its own kind of key (AddKey, AddAssistantKey,
// AddIndexKey) and answers another kind 401. A site (DemoDomain, with
// DemoPages or Config.Pages; AddSite for more) is a corpus of DocPage,
// with versions, languages, tags and groups; PutPage and RemovePage change
// it as a deployment would, and the Index serves every site's public
// pages with a few web pages. Search ranks the same way every time
// (SearchData gives a search's answer without a request); a page the
// groups may not see is a 404. Context is assembled within its token
// budget, four characters a token.
//
// The assistant composes its answer from the site's pages and streams it:
// the v2 endpoint as the AI SDK v5 UI message stream (server-sent events,
// a search tool call, text, sources, a finish part with the thread id,
// [DONE]), the v1 endpoint as the AI SDK v4 data stream. A threadId the
// fake gave is continued. AssistantAnswers records each answer as it was
// sent, part by part: each one cost the organization credits. Markers in
// the question script the stream: [fake:cut=N] breaks the connection after
// N parts, [fake:slow=200ms] spaces them, [fake:error] ends with an error
// part and no finish, [fake:size=10MB] pads the answer, [fake:keepalive]
// adds keep-alive comments. FaultSlowStream and FaultReset do the same to
// a chosen request.
//
// # Bad days
//
// InjectFault (or Config.Faults) makes chosen requests fail, by route,
// method, position or probability: a 429 (FaultRateLimit), a proxy's 5xx
// page (FaultServerError), a JSON 4xx (FaultClientError), an undecodable
// 2xx (FaultMalformed), a 2xx with one field mistyped after the request
// took effect (FaultOddField), no answer (FaultDropConnection), an answer cut
// mid-body after the request took effect (FaultReset), no answer until
// the client gives up (FaultStall), a delay (FaultLatency), or a streamed
// answer whose parts come slowly (FaultSlowStream).
//
// A fault of your own is a Respond: it gets each request its rule hits,
// and the route's own answer to call or not, so it can pace or change the
// answer, or give another. This module's own tests play a hostile server
// with it (answers that never end or trickle, control characters in
// server text, ids no client can read back, echoed secrets).
//
// # Routes
//
// A route's constant is its pattern (the method and the path as the
// OpenAPI file writes them), named after the SDK's call that sends it:
// Route, then the call's service (or client), then its method. The SDK's
// Deployments.Trigger is RouteDeploymentsTrigger, AgentJobs.Create is
// RouteAgentJobsCreate, DiscoveryClient.Search is RouteDiscoverySearch, and
// Assistant.Stream is RouteAssistantStream (v2) and
// RouteAssistantStreamV1 (v1). Routes lists them with their short names
// (what mintlify-fake's -fault route=NAME takes), areas and budgets.
//
// The published rate limits are Budgets, each named, drawn by each route
// (Routes says which): agent job creations and messages, 100 per project
// per hour; analytics, 100 per organization per hour; deployments,
// previews, discovery and the Index theirs (see Budget). Past one, the
// fake answers 429 with Retry-After and X-RateLimit headers.
// Config.JobBudget, Config.AnalyticsBudget and Config.Limits (by name)
// change them (negative: off); ResetRateLimits starts every window afresh.
//
// # Where it comes from
//
// The fake is written from Mintlify's published OpenAPI files, not from the
// SDK, and imports nothing from it: if both were written from the same
// misunderstanding, tests would pass and users would fail. The same fake
// backs the Terraform provider's acceptance tests, `make demo` and the
// standalone command cmd/mintlify-fake.
package mintlifytest
