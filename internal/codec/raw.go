package codec

import "encoding/json"

// Small predicates on raw JSON values, shared by the root package's
// validation and hand-written fast paths. JSON white space (space, tab, CR,
// LF) around a value is allowed.

// TrimSpace trims the white space JSON allows around a value.
func TrimSpace(raw []byte) []byte { return trimSpace(raw) }

// IsNull reports whether raw is the literal null.
func IsNull(raw []byte) bool { return isNullLiteral(trimSpace(raw)) }

// IsObject reports whether raw is a well-formed JSON object.
func IsObject(raw []byte) bool {
	t := trimSpace(raw)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}

// IsArray reports whether raw starts a JSON array (it is not validated).
func IsArray(raw []byte) bool {
	t := trimSpace(raw)
	return len(t) > 0 && t[0] == '['
}

// Member returns the raw value of the first member named key of the JSON
// object obj, or nil.
func Member(obj []byte, key string) []byte {
	var out []byte
	_ = eachMember(obj, func(k, value []byte) error {
		if string(k) == key {
			out = value
			return errStop
		}
		return nil
	})
	return out
}
