package sdk

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

const (
	// DefaultPollInitial is the first delay between polls of a job.
	DefaultPollInitial = time.Second
	// DefaultPollMax caps the delay between polls. With the schedule below, a
	// 5-minute job takes at most 39 polls and is noticed at most 20 s late.
	DefaultPollMax = 20 * time.Second
	// maxTransientPollErrors is how many polls in a row may fail with a
	// transient error (after the request's own retries) before the wait ends.
	maxTransientPollErrors = 3
)

// WaitOption configures WaitForAgentJob.
type WaitOption func(*waitConfig)

type waitConfig struct {
	initial, max time.Duration
	onStatus     func(*AgentJob)
}

// WithPollInterval sets the first delay between polls and its cap.
func WithPollInterval(initial, maxDelay time.Duration) WaitOption {
	return func(w *waitConfig) {
		if initial > 0 {
			w.initial = initial
		}
		if maxDelay >= w.initial {
			w.max = maxDelay
		}
	}
}

// WithStatusCallback registers fn, called with the job after every poll.
// The Terraform provider logs progress through it.
func WithStatusCallback(fn func(*AgentJob)) WaitOption {
	return func(w *waitConfig) { w.onStatus = fn }
}

// pollDelay is the delay before the next poll, elapsed time after the wait
// began. It grows geometrically (initial + elapsed/10, about ×1.1 a poll)
// up to the cap, then is jittered down by up to 5%. Tying the delay to
// the elapsed time bounds how late the waiter notices a finished job: at
// most initial + 10% of the job's run time (until the cap), while a
// 5-minute job takes under 40 polls.
func (w *waitConfig) pollDelay(elapsed time.Duration) time.Duration {
	d := min(w.initial+elapsed/10, w.max)
	return d - rand.N(d/20+1)
}

// WaitForAgentJob polls the job until it is completed, archived or failed,
// and returns it. The wait ends the moment ctx is done: then it returns the
// last job it saw (nil if none) together with an error wrapping ctx.Err(),
// so callers can still record what they know.
//
// Transient failures (5xx, broken connections, short rate limits) already
// retried by the request layer do not end the wait unless several polls in a
// row fail; a 4xx such as 404, or an answer that is not this job, ends it
// at once. A poll refused with 429 and a Retry-After is next sent when the
// server said, when that fits before ctx's deadline; otherwise the wait
// ends at once with the error, which says when to try again.
func (c *Client) WaitForAgentJob(ctx context.Context, projectID, jobID string, opts ...WaitOption) (*AgentJob, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := ValidateJobID(jobID); err != nil {
		return nil, err
	}
	w := waitConfig{initial: DefaultPollInitial, max: DefaultPollMax}
	for _, opt := range opts {
		opt(&w)
	}
	start := c.clock.Now()
	var last *AgentJob
	failures := 0
	delay := w.pollDelay(0)
	for {
		if err := c.clock.Sleep(ctx, delay); err != nil {
			return last, fmt.Errorf("waiting for agent job %s: %w", jobID, err)
		}
		delay = w.pollDelay(c.clock.Now().Sub(start))
		job, err := c.GetAgentJob(ctx, projectID, jobID)
		if err != nil {
			if ctx.Err() != nil {
				return last, fmt.Errorf("waiting for agent job %s: %w", jobID, ctx.Err())
			}
			failures++
			if !isTransient(err) || failures >= maxTransientPollErrors {
				return last, fmt.Errorf("waiting for agent job %s: %w", jobID, err)
			}
			var apiErr *APIError
			if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
				if !fitsBeforeDeadline(ctx, apiErr.RetryAfter) {
					return last, fmt.Errorf("waiting for agent job %s: %w", jobID, err)
				}
				delay = apiErr.RetryAfter
			}
			continue
		}
		failures = 0
		last = job
		if w.onStatus != nil {
			w.onStatus(job)
		}
		if job.Status.Terminal() {
			return job, nil
		}
	}
}

// isTransient reports whether a failed request may succeed if made again
// later: a 429, a 5xx other than 501, or no response at all. A malformed
// answer would be malformed again.
func isTransient(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusTooManyRequests || serverFailedTransiently(apiErr.StatusCode)
	}
	return !IsValidation(err) && !IsMalformedResponse(err)
}
