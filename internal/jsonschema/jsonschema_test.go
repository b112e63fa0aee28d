package jsonschema

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateKeywords(t *testing.T) {
	for _, c := range []struct {
		name, schema, doc string
		path, reason      string // "" path: valid
	}{
		{"true schema", `true`, `[1]`, "", ""},
		{"false schema", `false`, `1`, "$", "no value"},
		{"type ok", `{"type":"string"}`, `"a"`, "", ""},
		{"type bad", `{"type":"string"}`, `1`, "$", "want string, got number"},
		{"type list ok", `{"type":["integer","null"]}`, `null`, "", ""},
		{"type list bad", `{"type":["integer","null"]}`, `"1"`, "$", "want integer or null, got string"},
		{"integer 2.0", `{"type":"integer"}`, `2.0`, "", ""},
		{"integer 1e3", `{"type":"integer"}`, `1e3`, "", ""},
		{"integer 2.5", `{"type":"integer"}`, `2.5`, "$", "want integer"},
		{"boolean", `{"type":"boolean"}`, `0`, "$", "want boolean"},
		{"object", `{"type":"object"}`, `[]`, "$", "got array"},
		{"properties ok", `{"properties":{"a":{"type":"number"}}}`, `{"a":1,"b":"x"}`, "", ""},
		{"properties bad", `{"properties":{"a":{"type":"number"}}}`, `{"a":"1"}`, "$.a", "want number"},
		{"required ok", `{"required":["a"]}`, `{"a":null}`, "", ""},
		{"required bad", `{"required":["a"]}`, `{"b":1}`, "$.a", "is required"},
		{"required ignores non-objects", `{"required":["a"]}`, `1`, "", ""},
		{"additionalProperties false ok", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1}`, "", ""},
		{"additionalProperties false bad", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b c":2}`, `$["b c"]`, "not allowed"},
		{"additionalProperties schema ok", `{"additionalProperties":{"type":"integer"}}`, `{"x":1}`, "", ""},
		{"additionalProperties schema bad", `{"additionalProperties":{"type":"integer"}}`, `{"x":true}`, "$.x", "want integer"},
		{"items ok", `{"items":{"type":"string"}}`, `["a","b"]`, "", ""},
		{"items bad", `{"items":{"type":"string"}}`, `["a",2]`, "$[1]", "want string"},
		{"minItems ok", `{"minItems":2}`, `[1,2]`, "", ""},
		{"minItems bad", `{"minItems":2}`, `[1]`, "$", "at least 2"},
		{"maxItems ok", `{"maxItems":2}`, `[1,2]`, "", ""},
		{"maxItems bad", `{"maxItems":2}`, `[1,2,3]`, "$", "at most 2"},
		{"enum ok", `{"enum":["a",1,null,{"k":[1]}]}`, `{"k":[1.0]}`, "", ""},
		{"enum bad", `{"enum":["a",1]}`, `"b"`, "$", `want one of ["a",1]`},
		{"const ok", `{"const":1.50}`, `1.5`, "", ""},
		{"const bad", `{"const":"x"}`, `"y"`, "$", `want "x"`},
		{"anyOf ok", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, `null`, "", ""},
		{"anyOf bad", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, `1`, "$", "none of the anyOf"},
		{"anyOf deepest", `{"anyOf":[{"properties":{"a":{"type":"string"}},"type":"object"},{"type":"null"}]}`, `{"a":1}`, "$.a", "want string"},
		{"pattern ok", `{"pattern":"^[0-9]+$"}`, `"123"`, "", ""},
		{"pattern bad", `{"pattern":"^[0-9]+$"}`, `"12a"`, "$", "matching"},
		{"pattern ignores numbers", `{"pattern":"^a$"}`, `1`, "", ""},
		{"ref root ok", `{"type":"object","properties":{"n":{"$ref":"#"}}}`, `{"n":{"n":{}}}`, "", ""},
		{"ref root bad", `{"type":"object","properties":{"n":{"$ref":"#"}}}`, `{"n":{"n":1}}`, "$.n.n", "want object"},
		{"ref defs ok", `{"$ref":"#/$defs/a","$defs":{"a":{"type":"integer"}}}`, `1`, "", ""},
		{"ref defs bad", `{"$ref":"#/$defs/a","$defs":{"a":{"type":"integer"}}}`, `"1"`, "$", "want integer"},
		{"ref escaped", `{"$ref":"#/$defs/a~1b","$defs":{"a/b":{"type":"integer"}}}`, `"1"`, "$", "want integer"},
		{"ref missing", `{"$ref":"#/$defs/x"}`, `1`, "$", "does not resolve"},
		{"ref remote", `{"$ref":"https://example.com/s.json"}`, `1`, "$", "unsupported $ref"},
		{"ref loop", `{"$ref":"#"}`, `1`, "$", "too deep"},
		{"unknown keyword ignored", `{"minimum":5,"x-custom":true}`, `1`, "", ""},
		{"invalid doc", `{}`, `{"a":`, "$", "invalid JSON"},
		{"trailing data", `{}`, `1 2`, "$", "invalid JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Validate([]byte(c.schema), []byte(c.doc))
			if c.path == "" {
				if err != nil {
					t.Fatalf("rejects: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if e.Path != c.path || !strings.Contains(e.Reason, c.reason) {
				t.Errorf("got %q: %q, want %q and %q", e.Path, e.Reason, c.path, c.reason)
			}
		})
	}
}

func TestValidateFormats(t *testing.T) {
	for _, c := range []struct {
		format    string
		good, bad []string
	}{
		{"date-time", []string{"2026-01-02T03:04:05Z", "2026-01-02T03:04:05.123-07:00"}, []string{"2026-01-02", "2026-01-02 03:04:05Z", "2026-13-02T03:04:05Z"}},
		{"date", []string{"2026-02-28"}, []string{"2026-02-30", "26-02-28"}},
		{"time", []string{"03:04:05Z", "23:59:59.5+01:00"}, []string{"03:04:05", "25:00:00Z"}},
		{"duration", []string{"P1D", "PT1H30M", "P1Y2M3DT4H5M6.5S", "P2W"}, []string{"P", "PT", "1D", "P1H", "P1DT"}},
		{"email", []string{"a@b.c", "x.y@host"}, []string{"ab.c", "a@@b", "@b", "a@", "a b@c"}},
		{"hostname", []string{"example.com", "a-b.c", "localhost"}, []string{"-a.com", "a..b", "a_b.com", strings.Repeat("a", 64) + ".com"}},
		{"uri", []string{"https://example.com/x?y=1", "urn:isbn:123"}, []string{"/relative", "example.com"}},
		{"ipv4", []string{"192.168.0.1"}, []string{"256.1.1.1", "::1", "01.2.3.4"}},
		{"ipv6", []string{"::1", "2001:db8::ff00:42:8329"}, []string{"192.168.0.1", "fe80::1%eth0", "2001:db8:::1"}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000"}, []string{"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"}},
		{"unknown-format", []string{"anything"}, nil},
	} {
		t.Run(c.format, func(t *testing.T) {
			for _, s := range c.good {
				if err := CheckFormat(c.format, s); err != nil {
					t.Errorf("%q: %v", s, err)
				}
			}
			for _, s := range c.bad {
				if err := CheckFormat(c.format, s); err == nil {
					t.Errorf("%q passes", s)
				}
			}
		})
	}
	// A format constrains strings only.
	if err := Validate([]byte(`{"format":"email"}`), []byte(`12`)); err != nil {
		t.Error(err)
	}
	if err := Validate([]byte(`{"format":"email"}`), []byte(`"nope"`)); err == nil {
		t.Error("a bad email passes")
	}
}

func TestCompileRejects(t *testing.T) {
	for _, s := range []string{`{`, `1`, `"x"`, `[]`} {
		if _, err := Compile([]byte(s)); err == nil {
			t.Errorf("Compile(%s) succeeds", s)
		}
	}
}
