package mmstest

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// R2's session query rules: the events list's types[] is a closed enum
// (wire.SessionEventTypes) and a thread list filters by statuses[]
// (running, idle, rescheduling, terminated).

// checkEventTypes refuses a types[] value the service does not know.
func checkEventTypes(types []string) error {
	for i, t := range types {
		if !slices.Contains(wire.SessionEventTypes, t) {
			return fmt.Errorf("types.%d: Input should be a session event type, got %q", i, t)
		}
	}
	return nil
}

// threadStatuses reads a thread list's statuses[] filter.
func threadStatuses(r *http.Request) ([]string, error) {
	statuses := r.URL.Query()["statuses[]"]
	for i, s := range statuses {
		if !slices.Contains(wire.ThreadStatuses, s) {
			return nil, fmt.Errorf("statuses.%d: Input should be 'running', 'idle', 'rescheduling' or 'terminated'", i)
		}
	}
	return statuses, nil
}
