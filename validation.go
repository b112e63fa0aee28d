package mms

import "fmt"

// A ValidationError reports a request parameter that breaks a rule of the
// service. It is returned before any byte is sent.
type ValidationError struct {
	// Field is the path of the offending value, e.g. "messages[3].content[0].text".
	Field string
	// Rule says what the value must be, e.g. "must not be empty".
	Rule string
}

func (e *ValidationError) Error() string {
	return "mms: invalid parameter " + e.Field + ": " + e.Rule
}

// Is makes every ValidationError match [ErrInvalidParams].
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidParams }

// invalid builds a *ValidationError for field with a formatted rule.
func invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Rule: fmt.Sprintf(format, args...)}
}
