package mms

import "fmt"

// validateThreadStatuses checks a thread list's statuses[] filter: no
// empty entry. Other values pass, so a status newer than this SDK still
// filters.
func validateThreadStatuses(statuses []SessionStatus) error {
	for i, st := range statuses {
		if st == "" {
			return invalid(fmt.Sprintf("statuses[%d]", i), "must not be empty")
		}
	}
	return nil
}
