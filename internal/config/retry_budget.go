package config

import "sync"

// The defaults of a client's retry budget (option.WithRetryBudget). A
// retry costs RetryCost tokens, a retry after a timed-out or dropped
// attempt TimeoutCost (those failures hold a connection and a server
// worker longest); a call that succeeds puts back SuccessRefill tokens
// plus what its own retries took. In an outage, where nothing succeeds, a
// full bucket pays for 100 retries (50 after timeouts) and then the client
// sends each request once until successes refill it; a healthy client
// retrying one call in five stays full. These are the AWS SDKs' numbers
// (standard retry mode), which were tuned for the same problem.
const (
	DefaultRetryBudgetCapacity = 500
	DefaultRetryCost           = 5
	DefaultRetryTimeoutCost    = 10
	DefaultRetrySuccessRefill  = 1
)

// RetryBudget is a client's token bucket of retries, shared by all its
// calls: retries drain it, successes refill it, and a retry it cannot pay
// for is not made. Safe for concurrent use.
type RetryBudget struct {
	mu                        sync.Mutex
	tokens, capacity          int
	cost, timeoutCost, refill int
}

// NewRetryBudget returns a full bucket.
func NewRetryBudget(capacity, cost, timeoutCost, refill int) *RetryBudget {
	return &RetryBudget{tokens: capacity, capacity: capacity, cost: cost, timeoutCost: timeoutCost, refill: refill}
}

// DefaultRetryBudget returns a full bucket with the default sizes.
func DefaultRetryBudget() *RetryBudget {
	return NewRetryBudget(DefaultRetryBudgetCapacity, DefaultRetryCost, DefaultRetryTimeoutCost, DefaultRetrySuccessRefill)
}

// Take pays for one retry (timeout: after a timed-out or dropped attempt)
// and returns what it cost; ok is false, and nothing is taken, when the
// bucket holds too little. A nil budget pays for everything.
func (b *RetryBudget) Take(timeout bool) (cost int, ok bool) {
	if b == nil {
		return 0, true
	}
	cost = b.cost
	if timeout {
		cost = b.timeoutCost
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens < cost {
		return 0, false
	}
	b.tokens -= cost
	return cost, true
}

// Succeeded refills the bucket after a call that succeeded: the refill
// plus spent, what the call's own retries took (they did their job).
func (b *RetryBudget) Succeeded(spent int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.tokens = min(b.tokens+b.refill+spent, b.capacity)
	b.mu.Unlock()
}

// Tokens is what the bucket holds now.
func (b *RetryBudget) Tokens() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tokens
}
