// Package mintlifytest is an in-memory fake of Mintlify's platform API, for
// testing code that uses the Mintlify SDK (or any other client) without an
// account, a key or a network: what net/http/httptest is to HTTP handlers.
//
// It models agent jobs (create, get, follow-up messages, scripted outcomes
// on a clock you control) and the analytics export (deterministic data sets
// for every endpoint, dates, paging), with the API's authentication, error
// bodies and hourly rate limits, plus request counters and fault injection
// (429s, 5xx pages, dropped connections, latency).
//
//	srv := mintlifytest.NewServer(mintlifytest.Config{})
//	defer srv.Close()
//	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL))
//	...
//	job, err := client.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "[fake:failed] Try this")
//	...
//	if n := srv.Requests(mintlifytest.RouteCreateJob); n != 1 { ... }
//
// A job's prompt chooses its script: "[fake:failed]", "[fake:nochange]",
// "[fake:archived]", "[fake:never]", "[fake:completed]" and
// "[fake:active=30s]" (see JobScript); Config.DefaultJob scripts the rest.
//
// The fake is written from Mintlify's published OpenAPI files, not from the
// SDK, and imports nothing from it: if both were written from the same
// misunderstanding, tests would pass and users would fail. The same fake
// backs the Terraform provider's acceptance tests, `make demo` and the
// standalone command cmd/mintlify-fake.
package mintlifytest
