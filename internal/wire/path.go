package wire

import (
	"fmt"
	"strings"
)

// PathSegment checks an id that becomes one path segment and escapes it as
// the newest SDKs do (api-version-2026-10-21.md §3): empty ids and the dot
// segments "." and "..", also before a ";" (which some servers read as a
// segment parameter), are refused; RFC 3986's unreserved characters and
// ! ' ( ) * , ; are sent as they are; every other byte is percent-encoded.
// rule says why an id was refused ("" when it was not).
func PathSegment(id string) (seg, rule string) {
	if id == "" {
		return "", "must not be empty"
	}
	if dots, _, _ := strings.Cut(id, ";"); dots == "." || dots == ".." {
		return "", fmt.Sprintf("must not be a dot segment, got %q", id)
	}
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!'()*,;", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String(), ""
}
