package transport

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// testErrors is the Errors of the package's own tests: plain errors whose
// text names what was built.
type testErrors struct{}

func (testErrors) API(status int, _ http.Header, _ []byte, attempts int, _ string, _ *Scrubber) error {
	return fmt.Errorf("api error %d after %d attempts", status, attempts)
}

func (testErrors) RequestTooLarge(method, path string, size, limit int64, sent bool) error {
	return fmt.Errorf("request too large: %s %s %d > %d (sent %v)", method, path, size, limit, sent)
}

func (testErrors) ResponseTooLarge(method, path string, limit, contentLength int64) error {
	return fmt.Errorf("response too large: %s %s limit %d length %d", method, path, limit, contentLength)
}

func (testErrors) Redirect(method, path string, status int, host, reason string, err error) error {
	return fmt.Errorf("redirect %d of %s %s to %s: %s: %w", status, method, path, host, reason, err)
}

func (testErrors) AttemptTimeout(timeout time.Duration) error {
	return fmt.Errorf("attempt timed out after %v", timeout)
}

var errTestNotReplayable = errors.New("not replayable")

func (testErrors) NotReplayable() error { return errTestNotReplayable }

var errTestMaybeApplied = errors.New("maybe applied")

func (testErrors) MaybeApplied(method, path string) error {
	return fmt.Errorf("%s %s: %w", method, path, errTestMaybeApplied)
}

var errTestRetryBudget = errors.New("retry budget spent")

func (testErrors) RetryBudget() error { return errTestRetryBudget }
