package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// DefaultCreateTimeout bounds how long work at Mintlify (a job, a
// follow-up message's round of work, a deployment, an export) is waited
// for when the configuration sets no timeout.
const DefaultCreateTimeout = 30 * time.Minute

// work is one request that starts work at Mintlify and, when asked, the
// wait for that work to end. Every resource and action that starts work
// runs through it, so they agree on every outcome; only their words and
// their kind of object differ. O is the SDK's object (sdk.AgentJob, ...).
//
// Once the request is answered, the object's id is recorded at once, and
// nothing is ever sent again by the run: a failure, a timeout, an
// interrupt or an answer with odd fields leaves the object recorded.
type work[O any] struct {
	data *providerData
	kind workKind[O]
	// start sends the request that starts the work.
	start func(ctx context.Context) (*O, error)
	// wait waits for the started object to end.
	wait    func(ctx context.Context, started *O, opts ...sdk.WaitOption) (*O, error)
	doWait  bool
	timeout time.Duration
	words   workWords
	// record receives the object the moment the request answers, and
	// again when the wait ends: resources save it in state each time.
	record func(*O)
	// onChange receives each change of status while waiting.
	onChange func(obj *O, from string)
	// onPoll, when set, receives the object after every poll (progress
	// within a status).
	onPoll func(obj *O)
	// stopped, when set, is told that the wait ended before the work did:
	// it timed out or was interrupted.
	stopped func()
}

// workKind is what the runner knows of one kind of object.
type workKind[O any] struct {
	noun string // "agent job"
	id   func(*O) string
	// validID is the SDK's rule for the object's id, the one its reads
	// use (sdk.ValidateJobID, ...): an id that breaks it is never recorded.
	validID func(string) error
	status  func(*O) string
	// known reports whether a status is one the provider knows.
	known func(string) bool
	// problems are the fields of the API's answer the SDK could not use.
	problems func(*O) []string
	// outcome turns the object the wait ended with into diagnostics: an
	// error fails the run (and taints a resource), a warning does not.
	outcome func(obj *O, words workWords, diags *diag.Diagnostics)
}

// workWords are what a caller says of its outcomes.
type workWords struct {
	// startFailed is the summary when the request fails ("Could not create
	// the agent job"); mayHaveTakenEffect the advice added when it may
	// still have been carried out.
	startFailed, mayHaveTakenEffect string
	// kept says what became of the object of this id when its run ends in
	// an error after the request: "... is saved in state (tainted ...)" for
	// a resource, "... goes on at Mintlify" for an action.
	kept func(id string) string
	// unknownOutcome, for a resource, says what became of the object of
	// this id when its status could not be read while waiting: it is kept
	// untainted, and the next refresh learns how it ended. An action, which
	// keeps no state to refresh, leaves it nil: such a run is an error.
	unknownOutcome func(id string) string
	// failed says what follows a failed object, after the sentence naming it.
	failed string
	// timeoutSetting names the setting that bounds the wait, and
	// raiseTimeout shows how to raise it.
	timeoutSetting, raiseTimeout string
	// notFound is the advice when the request is answered 404 ("" for
	// the project's advice).
	notFound string
	// forbidden, when set, is added to the advice when the request is
	// answered 403 (a feature not on the organization's plan).
	forbidden string
}

// run carries the work out and returns the last object it saw (nil when
// the request failed). Outcomes become diagnostics.
func (w work[O]) run(ctx context.Context, diags *diag.Diagnostics) *O {
	ctx = w.data.logContext(ctx)
	obj, err := w.start(ctx)
	if unusable := (*sdk.UnusableIDError)(nil); errors.As(err, &unusable) {
		// The SDK refused the answer's id by the same rule as below.
		diags.AddError(w.words.startFailed, unreadableAnswer(w.kind.noun, unusable.ID, w.kind.validID(unusable.ID))+"\n\n"+w.words.mayHaveTakenEffect)
		return nil
	}
	if obj == nil {
		notFound := w.words.notFound
		if notFound == "" {
			notFound = projectNotFound
		}
		detail := apiErrorDetailFor(err, notFound)
		if sdk.IsForbidden(err) && w.words.forbidden != "" {
			detail += " " + w.words.forbidden
		}
		if sdk.MayHaveTakenEffect(err) {
			detail += "\n\n" + w.words.mayHaveTakenEffect
		}
		diags.AddError(w.words.startFailed, detail)
		return nil
	}
	id := w.kind.id(obj)
	if err := w.kind.validID(id); err != nil {
		// Recorded, it would fail every later plan: no read could send it.
		diags.AddError(w.words.startFailed, unreadableAnswer(w.kind.noun, id, err)+"\n\n"+w.words.mayHaveTakenEffect)
		return nil
	}
	kept := w.words.kept(id)
	problems := newProblemNotes(w.kind.noun, id)
	// Record the object at once: whatever happens next, its id is kept.
	w.record(obj)
	problems.add(w.kind.problems(obj))
	defer problems.warn(diags)
	tflog.Info(ctx, w.kind.noun+" started", map[string]any{"id": id, "status": w.kind.status(obj), "wait": w.doWait})
	if !w.doWait {
		return obj
	}

	last := w.kind.status(obj)
	unknownLogged := false
	onPoll := sdk.WithStatusCallback(func(o *O) {
		problems.add(w.kind.problems(o))
		status := w.kind.status(o)
		if !w.kind.known(status) && !unknownLogged {
			tflog.Warn(ctx, w.kind.noun+" has a status the provider does not know; still waiting", map[string]any{"id": id, "status": status})
			unknownLogged = true
		}
		if status != last {
			tflog.Info(ctx, w.kind.noun+" status changed", map[string]any{"id": id, "from": last, "to": status})
			if w.onChange != nil {
				w.onChange(o, last)
			}
			last = status
		}
		if w.onPoll != nil {
			w.onPoll(o)
		}
	})
	opts := append([]sdk.WaitOption{onPoll, sdk.WithWaitTimeout(w.timeout)}, w.data.waitOptions...)
	final, err := w.wait(ctx, obj, opts...)
	if final != nil {
		obj = final
		w.record(obj)
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		w.stop()
		diags.AddError("Interrupted while waiting for the "+w.kind.noun,
			fmt.Sprintf("%s It was still %s when Terraform stopped waiting. To wait longer next time, raise %s.", kept, describeStatus(last), w.words.timeoutSetting))
		return obj
	case errors.Is(err, context.DeadlineExceeded):
		w.stop()
		diags.AddError("Timed out waiting for the "+w.kind.noun,
			fmt.Sprintf("%s It was still %s after %s. This can take a while: raise the limit with\n\n%s", kept, describeStatus(last), shortDuration(w.timeout), w.words.raiseTimeout))
		return obj
	default:
		// A read that failed while waiting (a 404, 5xx past the retries, an
		// answer for another object) says nothing of how the work went: a
		// resource keeps it untainted, so that nothing runs again by
		// itself, and its next refresh learns the outcome.
		gone := fmt.Sprintf("The %s is gone from the Mintlify API: check it in the Mintlify dashboard.", w.kind.noun)
		if w.words.unknownOutcome != nil {
			diags.AddWarning("Could not learn how the "+w.kind.noun+" ended",
				w.words.unknownOutcome(id)+"\n\n"+apiErrorDetailFor(err, gone))
			return obj
		}
		diags.AddError("Error while waiting for the "+w.kind.noun, apiErrorDetailFor(fmt.Errorf("%s %w", kept, err), gone))
		return obj
	}
	w.kind.outcome(obj, w.words, diags)
	tflog.Info(ctx, w.kind.noun+" finished", map[string]any{"id": id, "status": w.kind.status(obj)})
	return obj
}

func (w work[O]) stop() {
	if w.stopped != nil {
		w.stopped()
	}
}

// unreadableAnswer says that the request that starts work was answered
// with an id no read can send, so nothing is recorded.
func unreadableAnswer(noun, id string, err error) string {
	return fmt.Sprintf("Mintlify answered with %s id %s, which %s: no later read could send it, so the provider keeps "+
		"nothing of the answer.", noun, quoted(id), ruleOf(err))
}

// describeStatus is a status as messages show it: server text, escaped
// and clipped (a status the provider does not know is shown as sent).
func describeStatus(s string) string {
	if s == "" {
		return "of a status the API's answers did not give"
	}
	return sdk.DisplayLine(s)
}

// problemNotes gathers what the SDK could not use in the API's answers
// about one object, to say it once.
type problemNotes struct {
	noun, id string
	seen     []string
}

func newProblemNotes(noun, id string) *problemNotes { return &problemNotes{noun: noun, id: id} }

func (n *problemNotes) add(problems []string) {
	for _, p := range problems {
		if !slices.Contains(n.seen, p) {
			n.seen = append(n.seen, p)
		}
	}
}

// warn says what was odd, if anything: the object is kept and nothing is
// run again because of it.
func (n *problemNotes) warn(diags *diag.Diagnostics) {
	if len(n.seen) == 0 {
		return
	}
	diags.AddWarning("Unexpected answer from Mintlify",
		fmt.Sprintf("Mintlify's answers about %s %s had fields the provider could not use: %s. The %s is kept as it is "+
			"and nothing is run again because of it; the attributes that could not be read are empty.",
			n.noun, sdk.DisplayLine(n.id), problemList(n.seen), n.noun))
}
