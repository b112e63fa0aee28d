package mmstest

import (
	"fmt"
	"net/http"
	"strconv"
)

// heartbeatQuery reads R2's heartbeat parameters from the query
// (desired_ttl_seconds, expected_last_heartbeat), which win over a body's.
func heartbeatQuery(r *http.Request, ttl **int, expected **string) error {
	q := r.URL.Query()
	for k := range q {
		if k != "desired_ttl_seconds" && k != "expected_last_heartbeat" {
			return fmt.Errorf("%s: unknown query parameter", k)
		}
	}
	if v := q.Get("desired_ttl_seconds"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("desired_ttl_seconds: Input should be a valid integer")
		}
		*ttl = &n
	}
	if q.Has("expected_last_heartbeat") {
		v := q.Get("expected_last_heartbeat")
		*expected = &v
	}
	return nil
}
