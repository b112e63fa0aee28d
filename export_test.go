package mms

import (
	"time"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/option"
)

// WithNowForTest sets the clock token expiry is judged by, so tests can
// share the fake's manual clock.
func WithNowForTest(now func() time.Time) option.RequestOption {
	return func(c *config.Config) error {
		c.Now = now
		return nil
	}
}
