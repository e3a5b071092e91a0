package sdk

import (
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"
)

// Each lenient leaf names what came instead of what it wants.
func TestDecode_leavesNameWhatCame(t *testing.T) {
	for body, want := range map[string]string{
		`{"web":true,"api":0,"other":0,"total":0}`:    "web: want a number, got true or false",
		`{"web":[],"api":0,"other":0,"total":0}`:      "web: want a number, got a list",
		`{"web":{},"api":0,"other":0,"total":0}`:      "web: want a number, got an object",
		`{"web":"1","api":0,"other":0,"total":0}`:     "web: want a number, got a string",
		`{"web":1,"api":0,"other":0,"total":-3}`:      "total: -3 is negative",
		`{"web":1,"api":0,"other":0,"total":1e999}`:   "total: 1e999 is out of range",
		`{"web":1,"api":0,"other":0,"total":-1e999}`:  "total: -1e999 is out of range",
		`{"web":1,"api":0,"other":0,"total":9.3e18}`:  "total: 9.3e18 is out of range",
		`{"web":1,"api":0,"other":0,"total":-9.3e18}`: "total: -9.3e18 is out of range",
		`{"web":1,"api":0,"other":0,"total":-5e0}`:    "total: -5e0 is negative",
		`{"web":1,"api":0,"other":0,"total":0.5}`:     "total: 0.5 is not a whole number",
	} {
		var s CallerStats
		if err := wire.Decode([]byte(body), &s); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var s CallerStats
	if err := wire.Decode([]byte(`{"web":1.0e1,"api":123456789012345678,"other":1234567890123456789,"total":0}`), &s); err != nil || s.Web != 10 || s.API != 123456789012345678 || s.Other != 1234567890123456789 {
		t.Errorf("%+v, %v", s, err)
	}
	// Strings, flags and rates.
	const row = `"searchQuery":"q","hits":1,"topClickedPage":null,"lastSearchedAt":"t"`
	for body, want := range map[string]string{
		`{"searches":[{` + row + `,"ctr":"high"}],"totalSearches":1,"nextCursor":null}`:                                                       "searches[0].ctr: want a number, got a string",
		`{"searches":[{` + row + `,"ctr":1e999}],"totalSearches":1,"nextCursor":null}`:                                                        `searches[0].ctr: "1e999" is not a finite number`,
		`{"searches":[{` + row + `,"ctr":-2}],"totalSearches":1,"nextCursor":null}`:                                                           "searches[0].ctr: -2 is negative",
		`{"searches":[{` + row + `}],"totalSearches":1,"nextCursor":null}`:                                                                    "searches[0].ctr: missing",
		`{"searches":[{"searchQuery":true,"hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":null}`: "searches[0].searchQuery: want a string, got true or false",
		`{"searches":[{"searchQuery":"q","hits":1,"ctr":0,"topClickedPage":3,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":null}`:     "searches[0].topClickedPage: want a string or null, got a number",
		`{"searches":[],"totalSearches":0,"nextCursor":{}}`:                                                                                   "nextCursor: want a string or null, got an object",
	} {
		var pg SearchesPage
		if err := wire.Decode([]byte(body), &pg); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var pg SearchesPage
	if err := wire.Decode([]byte(`{"searches":[{`+row+`,"ctr":0.25},{"searchQuery":"r","hits":2,"ctr":3,"topClickedPage":"/a","lastSearchedAt":"t"},{"searchQuery":"s","hits":2,"ctr":-0.0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":3,"nextCursor":"n"}`), &pg); err != nil ||
		pg.Searches[0].CTR != 0.25 || pg.Searches[1].CTR != 3 || pg.Searches[2].CTR != 0 || *pg.Searches[1].TopClickedPage != "/a" || *pg.NextCursor != "n" {
		t.Errorf("%+v, %v", pg, err)
	}
	for body, want := range map[string]string{
		`{"feedback":[],"nextCursor":null,"hasMore":1}`:    "hasMore: want true or false, got a number",
		`{"feedback":[],"nextCursor":null,"hasMore":[]}`:   "hasMore: want true or false, got a list",
		`{"feedback":[],"nextCursor":null,"hasMore":{}}`:   "hasMore: want true or false, got an object",
		`{"feedback":[],"nextCursor":null,"hasMore":null}`: "hasMore: missing",
		`{"feedback":[{"id":"a","path":"/","source":"agent","status":"pending","helpful":"yes"}],"nextCursor":null,"hasMore":false}`: "feedback[0].helpful: want true or false or null, got a string",
	} {
		var pg FeedbackPage
		if err := wire.Decode([]byte(body), &pg); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var fb FeedbackPage
	if err := wire.Decode([]byte(`{"feedback":[{"id":"a\u0062","path":"/\"q\"","source":"contextual","status":"pending","helpful":false,"comment":null}],"nextCursor":null,"hasMore":true}`), &fb); err != nil ||
		fb.Feedback[0].ID != "ab" || fb.Feedback[0].Path != `/"q"` || fb.Feedback[0].Helpful == nil || *fb.Feedback[0].Helpful || fb.Feedback[0].Comment != nil || !fb.HasMore {
		t.Errorf("%+v, %v", fb, err)
	}
}

func TestDecode_conversationsAndThreads(t *testing.T) {
	var pg ConversationsPage
	body := `{"conversations":[{"id":"a","timestamp":"t","query":"q","response":"r","responseType":"clarifying_question","sources":[{"title":"T","url":"/u"},{"title":null}],"resolutionStatus":"answered","queryCategory":"c","pageUrl":"/p"},` +
		`{"id":"b","timestamp":"t","query":"q","response":"r","responseType":null,"sources":[],"resolutionStatus":"unanswered","queryCategory":null,"pageUrl":null}],"nextCursor":"01JD8X3Q6V3XK8M4Y2Z9T0B1CD","hasMore":true}`
	if err := wire.Decode([]byte(body), &pg); err != nil {
		t.Fatal(err)
	}
	a, b := pg.Conversations[0], pg.Conversations[1]
	if a.ResponseType != "clarifying_question" || len(a.Sources) != 2 || a.Sources[0] != (ConversationSource{"T", "/u"}) || a.Sources[1] != (ConversationSource{}) ||
		*a.QueryCategory != "c" || *a.PageURL != "/p" || b.ResponseType != "answer" || b.QueryCategory != nil || len(b.Sources) != 0 || !pg.HasMore {
		t.Errorf("%+v", pg)
	}
	for body, want := range map[string]string{
		`{"conversations":[{"id":"a","timestamp":"t","query":"q","response":"r","sources":[{"title":1}],"resolutionStatus":"answered"}],"nextCursor":null,"hasMore":false}`:       "conversations[0].sources[0].title: want a string or null, got a number",
		`{"conversations":[{"id":"a","timestamp":"t","query":"q","response":"r","responseType":2,"sources":[],"resolutionStatus":"answered"}],"nextCursor":null,"hasMore":false}`: "conversations[0].responseType: want a string or null, got a number",
		`{"conversations":[{"timestamp":"t","query":"q","response":"r","sources":[],"resolutionStatus":"answered"}],"nextCursor":null,"hasMore":false}`:                           "conversations[0].id: missing",
	} {
		if err := wire.Decode([]byte(body), &pg); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var th AssistantThread
	if err := wire.Decode([]byte(`{"threadId":"x","createdAt":"t","messages":[{"id":"m","role":"user","content":"hi","createdAt":"t"},{"id":"n","role":"assistant","createdAt":"t"}]}`), &th); err == nil ||
		err.Error() != "messages[1].content: missing" {
		t.Errorf("thread: %v", err)
	}
	if err := wire.Decode([]byte(`{"threadId":"x","createdAt":"t"}`), &th); err == nil || err.Error() != "messages: missing" {
		t.Errorf("thread without messages: %v", err)
	}
	var by FeedbackByPage
	if err := wire.Decode([]byte(`{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":2,"code":3,"total":6}],"hasMore":true}`), &by); err != nil ||
		len(by.Pages) != 1 || by.Pages[0] != (PageFeedback{"/a", 1, 2, 3, 6}) || !by.HasMore {
		t.Errorf("by page: %+v, %v", by, err)
	}
	if err := wire.Decode([]byte(`{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":2,"code":3}]}`), &by); err == nil || err.Error() != "feedback[0].total: missing; hasMore: missing" {
		t.Errorf("by page: %v", err)
	}
}
