package option

import (
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/ratelimit"
)

// WithPriorityPacing makes the client-side limiter wait, too, when a
// response's vendor-priority-* headers say a priority bucket is empty: the
// next requests wait for its reset (never more than a minute), so requests
// with service_tier auto wait for priority capacity instead of being served
// at the standard tier. It adds to the limiter of a WithRateLimit or
// WithRateLimiter given before it, sharing its budget; without one it
// paces by the headers alone. A rate-limit option given after it replaces
// it. Give it to NewClient; per call it works on a client that has a
// limiter.
func WithPriorityPacing() RequestOption {
	return func(c *config.Config) error {
		l, _ := c.Limiter.(*ratelimit.Limiter)
		if l == nil {
			l = ratelimit.New(0, 0)
		}
		c.Limiter = l.PacePriority()
		return nil
	}
}
