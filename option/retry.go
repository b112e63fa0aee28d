package option

import "github.com/mms-sdk/mms-go/internal/config"

// RetryBudget sizes a client's retry budget: a token bucket shared by all
// the client's calls, so that during an outage retries stop multiplying
// the load. Each retry takes RetryCost tokens (TimeoutCost after an attempt
// that timed out or whose connection dropped after the request was
// written); a call that succeeds puts back SuccessRefill tokens plus what
// its own retries took; a retry the bucket cannot pay for is not made, and
// the call's error matches mms.ErrRetryBudgetExhausted. A zero field takes
// its default: Capacity 500, RetryCost 5, TimeoutCost 10, SuccessRefill 1
// (the AWS SDKs' standard retry mode), so a full bucket pays for 100
// retries, or 50 after timeouts, in a row.
type RetryBudget struct {
	// Capacity is the bucket's size, and what it holds at the start.
	Capacity int
	// RetryCost is what a retry takes.
	RetryCost int
	// TimeoutCost is what a retry after a timed-out or dropped attempt
	// takes.
	TimeoutCost int
	// SuccessRefill is what each successful call puts back.
	SuccessRefill int
}

// WithRetryBudget sizes the client's retry budget (see [RetryBudget]; the
// budget is on by default). It is a client option: the budget is the
// client's, shared by its calls, so a call refuses it (a call can opt
// out with [WithoutRetryBudget]). Negative fields are an error.
func WithRetryBudget(b RetryBudget) RequestOption {
	return func(c *config.Config) error {
		if b.Capacity < 0 || b.RetryCost < 0 || b.TimeoutCost < 0 || b.SuccessRefill < 0 {
			return fail("WithRetryBudget: %+v has a negative field", b)
		}
		def := func(v, d int) int {
			if v == 0 {
				return d
			}
			return v
		}
		c.RetryBudget = config.NewRetryBudget(def(b.Capacity, config.DefaultRetryBudgetCapacity),
			def(b.RetryCost, config.DefaultRetryCost), def(b.TimeoutCost, config.DefaultRetryTimeoutCost),
			def(b.SuccessRefill, config.DefaultRetrySuccessRefill))
		return nil
	}
}

// WithoutRetryBudget switches the retry budget off: every failed attempt
// that may be retried is, up to WithMaxRetries, however many fail around
// it. On a client it is off for all calls; on a call, for that call (its
// retries neither take from the client's budget nor are refused by it).
func WithoutRetryBudget() RequestOption {
	return func(c *config.Config) error {
		c.RetryBudget = nil
		return nil
	}
}
