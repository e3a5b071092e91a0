package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The discovery and Index examples run against mintlifytest too: the fake
// serves every API on one host, the discovery API under /discovery and
// the Index under /api/universal-search. Against the real APIs, drop the
// server and WithBaseURL, and pass your assistant key (mint_dsc_...) or
// Index key (mint_us_...) and your site's domain.
func newDocsClient() (*mintlifytest.Server, *sdk.DiscoveryClient) {
	srv := mintlifytest.NewServer(mintlifytest.Config{})
	docs, err := sdk.NewDiscoveryClient(mintlifytest.DemoAssistantKey, sdk.WithBaseURL(srv.URL+"/discovery"))
	if err != nil {
		log.Fatal(err)
	}
	return srv, docs
}

func ExampleNewDiscoveryClient() {
	// Each client takes its own key kind: an admin key is refused here,
	// before any request, so it never reaches the discovery API's host.
	_, err := sdk.NewDiscoveryClient(mintlifytest.DemoAPIKey)
	fmt.Println(err)
	// Output:
	// assistantKey is an admin API key (mint_...), for the admin API, not an assistant API key (mint_dsc_...): get one from the API keys page of the Mintlify dashboard
}

func ExampleDiscoveryClient_Search() {
	srv, docs := newDocsClient()
	defer srv.Close()

	res, err := docs.Search(context.Background(), mintlifytest.DemoDomain, sdk.SearchRequest{Query: "preview deployments", PageSize: 3})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Results {
		fmt.Printf("%s (%v): %s\n", r.Path, r.Metadata["title"], r.Content)
	}
	// Output:
	// /deploy/preview-deployments (Preview deployments): A preview deployment publishes a branch at its own URL, for review before merging. Pushing the branch again redeploys the preview under the same URL.
	// /deploy/deployments (Deployments): Every push to the deployment branch starts a deployment. A deployment builds the site, checks its links and publishes it in about a minute.
	// /quickstart (Quickstart): When the preview looks right, push to your deployment branch: Mintlify deploys every push.
}

func ExampleDiscoveryClient_Page() {
	srv, docs := newDocsClient()
	defer srv.Close()
	ctx := context.Background()

	page, err := docs.Page(ctx, mintlifytest.DemoDomain, "/deploy/preview-deployments", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.SplitN(page.Content, "\n", 2)[0])

	// A page the site does not have (or the groups may not see) is a 404.
	_, err = docs.Page(ctx, mintlifytest.DemoDomain, "/internal/runbook", nil)
	fmt.Println("staff page without groups, not found:", sdk.IsNotFound(err))
	// Output:
	// # Preview deployments
	// staff page without groups, not found: true
}

// The assistant's answer, printed as it streams.
func ExampleAssistantService_Stream() {
	srv, docs := newDocsClient()
	defer srv.Close()

	stream, err := docs.Assistant.Stream(context.Background(), mintlifytest.DemoDomain, sdk.AssistantRequest{Question: "How do I deploy a preview?"})
	if err != nil {
		// The message may have cost credits even so: never resend it blindly.
		log.Fatal(err, "; may have been carried out: ", sdk.MayHaveTakenEffect(err))
	}
	for part, err := range stream.Parts() { // closes the stream when the loop ends
		if err != nil {
			log.Fatal(err) // *sdk.StreamError: cut, stalled or malformed; the answer is incomplete
		}
		switch part.Type {
		case sdk.PartTextDelta:
			fmt.Print(part.Text)
		case sdk.PartSourceURL:
			fmt.Println("source:", part.Source.URL)
		}
	}
	fmt.Println("thread:", stream.ThreadID())
	// Output:
	// From the documentation:
	//
	// - **Preview deployments**: A preview deployment publishes a branch at its own URL, for review before merging.
	// - **Deployments**: Every push to the deployment branch starts a deployment.
	// - **Quickstart**: When the preview looks right, push to your deployment branch: Mintlify deploys every push.
	// source: https://demo-docs.mintlify.site/deploy/preview-deployments
	// source: https://demo-docs.mintlify.site/deploy/deployments
	// source: https://demo-docs.mintlify.site/quickstart
	// thread: thread_000001
}

// A conversation: the second question continues the first one's thread.
func ExampleAssistantService_Ask() {
	srv, docs := newDocsClient()
	defer srv.Close()
	ctx := context.Background()

	first, err := docs.Assistant.Ask(ctx, mintlifytest.DemoDomain, sdk.AssistantRequest{Question: "How do I install the CLI?", RetrievalPageSize: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(first.Text)
	next, err := docs.Assistant.Ask(ctx, mintlifytest.DemoDomain, sdk.AssistantRequest{
		ThreadID:          first.ThreadID,
		Messages:          []sdk.AssistantMessage{{Role: sdk.RoleUser, Text: "How do I install the CLI?"}, {Role: sdk.RoleAssistant, Text: first.Text}},
		Question:          "How do I upgrade it?",
		RetrievalPageSize: 1,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(next.Text)
	fmt.Println("same thread:", next.ThreadID == first.ThreadID, "; sources:", len(next.Sources))
	// Output:
	// From the documentation:
	//
	// - **Installation**: The CLI needs Node.js 20 or later.
	// From the documentation:
	//
	// - **Installation**: Upgrade the CLI with `mint update`.
	// same thread: true ; sources: 1
}

// A stream cut before its finish part is an error, never a short answer;
// the text read so far is still there.
func ExampleAssistantStream_Collect() {
	srv, docs := newDocsClient()
	defer srv.Close()

	// [fake:cut=8]: the fake breaks the connection after 8 parts.
	stream, err := docs.Assistant.Stream(context.Background(), mintlifytest.DemoDomain, sdk.AssistantRequest{Question: "[fake:cut=8] How do I deploy?"})
	if err != nil {
		log.Fatal(err)
	}
	answer, err := stream.Collect()
	var se *sdk.StreamError
	if errors.As(err, &se) {
		fmt.Println("problem:", se.Problem, "; parts read:", se.Parts)
		fmt.Printf("partial text: %q\n", answer.Text)
		fmt.Println("credits spent, so do not resend blindly:", sdk.MayHaveTakenEffect(err))
	}
	// Output:
	// problem: cut ; parts read: 8
	// partial text: "From the documentation:\n\n- **Deployments**: Every push "
	// credits spent, so do not resend blindly: true
}

func newIndexClient() (*mintlifytest.Server, *sdk.IndexClient) {
	srv := mintlifytest.NewServer(mintlifytest.Config{})
	index, err := sdk.NewIndexClient(mintlifytest.DemoIndexKey, sdk.WithBaseURL(srv.URL+"/api/universal-search"))
	if err != nil {
		log.Fatal(err)
	}
	return srv, index
}

func ExampleIndexClient_Search() {
	srv, index := newIndexClient()
	defer srv.Close()

	res, err := index.Search(context.Background(), sdk.IndexSearchRequest{Query: "docs as code", NumResults: 2, MaxCharacters: 40})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Results {
		fmt.Printf("%s [%s, %.2f] %q truncated=%v\n", r.Title, r.Source, r.Score, r.Text, r.Truncated)
	}
	// Output:
	// Docs as code with Mintlify [web, 1.00] "# Docs as code\n\nKeep your documentation " truncated=true
	// AI assistant [mintlify, 0.11] "# AI assistant\n\nThe assistant answers re" truncated=true
}

func ExampleIndexClient_Context() {
	srv, index := newIndexClient()
	defer srv.Close()

	got, err := index.Context(context.Background(), sdk.IndexContextRequest{Query: "preview deployments", TokenBudget: 120})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.ResultsCount, "source within", got.OutputTokens, "tokens:")
	fmt.Println(strings.SplitN(got.Response, "\n", 4)[2])
	// Output:
	// 1 source within 76 tokens:
	// Source: https://demo-docs.mintlify.site/deploy/preview-deployments
}

func ExampleIndexClient_Contents() {
	srv, index := newIndexClient()
	defer srv.Close()

	got, err := index.Contents(context.Background(), sdk.IndexContentsRequest{
		IDs:  []string{"demo-docs:/quickstart", "demo-docs:/gone"},
		URLs: []string{"https://blog.example.com/docs-as-code"},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range got.Statuses {
		if s.Failed() {
			fmt.Println(s.ID, "failed:", s.Error.Tag)
			continue
		}
		fmt.Println(s.ID, "read")
	}
	fmt.Println(len(got.Results), "read")
	// Output:
	// demo-docs:/quickstart read
	// demo-docs:/gone failed: NOT_FOUND
	// https://blog.example.com/docs-as-code read
	// 2 read
}
