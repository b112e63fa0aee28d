package admin

import (
	"fmt"
	"slices"
	"unicode/utf8"

	mms "github.com/mms-sdk/mms-go"
)

// invalid is a *mms.ValidationError for field.
func invalid(field, format string, args ...any) error {
	return &mms.ValidationError{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// validateLimit reports a page size outside 1–max; 0 (the service's
// default) passes.
func validateLimit(limit, max int) error {
	if limit != 0 && (limit < 1 || limit > max) {
		return invalid("limit", "must be between 1 and %d (or 0 for the default), got %d", max, limit)
	}
	return nil
}

// validateIDList reports the rules of an id-scheme list: limit 1–1000,
// after_id and before_id not together.
func validateIDList(limit int, afterID, beforeID string) error {
	if err := validateLimit(limit, 1000); err != nil {
		return err
	}
	if afterID != "" && beforeID != "" {
		return invalid("after_id", "cannot be used together with before_id")
	}
	return nil
}

// required reports an empty required string.
func required(field, v string) error {
	if v == "" {
		return invalid(field, "is required")
	}
	return nil
}

// oneOf reports v not among allowed ("" passes: optional).
func oneOf[S ~string](field string, v S, allowed ...S) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return invalid(field, "must be one of %q, got %q", allowed, v)
}

// eachOneOf checks every element of vs against allowed.
func eachOneOf[S ~string](field string, vs []S, allowed ...S) error {
	for i, v := range vs {
		if v == "" {
			return invalid(fmt.Sprintf("%s[%d]", field, i), "must not be empty")
		}
		if err := oneOf(fmt.Sprintf("%s[%d]", field, i), v, allowed...); err != nil {
			return err
		}
	}
	return nil
}

// maxItems reports a list longer than n.
func maxItems(field string, n, max int) error {
	if n > max {
		return invalid(field, "must have at most %d entries, got %d", max, n)
	}
	return nil
}

// maxLen reports a string longer than max characters.
func maxLen(field, s string, max int) error {
	if n := utf8.RuneCountInString(s); n > max {
		return invalid(field, "must be at most %d characters, got %d", max, n)
	}
	return nil
}

// validateSlug reports a name that is not a slug: lowercase letters,
// digits and hyphens, not empty (issuers, rules, service accounts).
func validateSlug(field, s string) error {
	if s == "" {
		return invalid(field, "is required")
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return invalid(field, "must be a slug: lowercase letters, digits and hyphens, got %q", s)
		}
	}
	return nil
}

// itoa is strconv.Itoa, short for field paths.
func itoa(i int) string { return fmt.Sprint(i) }

// sortedKeys is m's keys in order, so the first error is deterministic.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
