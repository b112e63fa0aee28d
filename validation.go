package mms

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// A ValidationError reports a request parameter that breaks a rule of the
// service. It is returned before any byte is sent.
type ValidationError struct {
	// Field is the path of the offending value, e.g. "messages[3].content[0].text".
	Field string
	// Rule says what the value must be, e.g. "must not be empty".
	Rule string
}

// Error names the field and the rule it breaks.
func (e *ValidationError) Error() string {
	return "mms: invalid parameter " + e.Field + ": " + e.Rule
}

// Is makes every ValidationError match [ErrInvalidParams].
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidParams }

// invalid builds a *ValidationError for field with a formatted rule.
func invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// The id patterns of the request schema: client
// tool calls (tool_use, tool_result, mcp_tool_use, mcp_tool_result) and
// server tool calls (server_tool_use, every server tool result, caller).
const (
	toolIDPattern       = "^[a-zA-Z0-9_-]+$"
	serverToolIDPrefix  = "srvtoolu_"
	serverToolIDPattern = "^srvtoolu_[a-zA-Z0-9_]+$"
)

// checkToolID checks a client tool call id against toolIDPattern.
func checkToolID(path, id string) error {
	if isIDString(id) {
		return nil
	}
	return invalid(path, "must match %s, got %q", toolIDPattern, id)
}

// checkServerToolID checks a server tool call id against
// serverToolIDPattern.
func checkServerToolID(path, id string) error {
	if rest, ok := strings.CutPrefix(id, serverToolIDPrefix); ok && idChars(rest, false) {
		return nil
	}
	return invalid(path, "must match %s, got %q", serverToolIDPattern, id)
}

// isIDString reports whether s matches ^[a-zA-Z0-9_-]+$.
func isIDString(s string) bool { return idChars(s, true) }

// idChars reports whether s is not empty and holds only ASCII letters,
// digits, '_' and, when dash is set, '-'. A byte loop: these checks run for
// every block of every request.
func idChars(s string, dash bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || dash && c == '-') {
			return false
		}
	}
	return true
}

// sentEmpty reports whether extra remembers an explicit "" for key (see the
// null memory): the request form writes it back although the field is
// empty, so a minimum length applies to it too.
func sentEmpty(extra map[string]json.RawMessage, key string) bool {
	return string(codec.TrimSpace(extra[key])) == `""`
}

// pathID checks an id that becomes one path segment and escapes it.
func pathID(field, id string) (string, error) {
	seg, rule := wire.PathSegment(id)
	if rule != "" {
		return "", invalid(field, "%s", rule)
	}
	return seg, nil
}

// validateLength reports s shorter than lo or longer than hi characters
// (Unicode code points, as the service counts them).
func validateLength(path, s string, lo, hi int) error {
	n := utf8.RuneCountInString(s)
	switch {
	case n >= lo && n <= hi:
		return nil
	case lo == 0:
		return invalid(path, "must be at most %d characters, got %d", hi, n)
	case n == 0:
		return invalid(path, "must not be empty")
	case lo == hi:
		return invalid(path, "must be exactly %d characters, got %d", lo, n)
	}
	return invalid(path, "must be %d to %d characters, got %d", lo, hi, n)
}

// validateEach checks each item of a list of union values: not nil, and
// valid by its own rules. path is the list's, e.g. "resources".
func validateEach[U interface{ validate(string) error }](path string, items []U) error {
	for i, x := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		if any(x) == nil {
			return invalid(p, "must not be nil")
		}
		if err := x.validate(p); err != nil {
			return err
		}
	}
	return nil
}

// validateCount reports a list of more than hi items; what names an item.
func validateCount(path string, n, hi int, what string) error {
	if n > hi {
		return invalid(path, "must hold at most %d %s, got %d", hi, what, n)
	}
	return nil
}
