package wire

import "testing"

func TestPathSegment(t *testing.T) {
	for _, tt := range []struct{ id, seg, rule string }{
		{"agent_01", "agent_01", ""},
		{"a-b.c~d", "a-b.c~d", ""},
		{"!'()*,;", "!'()*,;", ""},
		{"a b/c?d#e%f", "a%20b%2Fc%3Fd%23e%25f", ""},
		{"é", "%C3%A9", ""},
		{"...", "...", ""},
		{".x", ".x", ""},
		{"x;..", "x;..", ""},
		{"", "", "must not be empty"},
		{".", "", `must not be a dot segment, got "."`},
		{"..", "", `must not be a dot segment, got ".."`},
		{"..;x", "", `must not be a dot segment, got "..;x"`},
		{".;", "", `must not be a dot segment, got ".;"`},
	} {
		seg, rule := PathSegment(tt.id)
		if seg != tt.seg || rule != tt.rule {
			t.Errorf("PathSegment(%q) = %q, %q; want %q, %q", tt.id, seg, rule, tt.seg, tt.rule)
		}
	}
}
