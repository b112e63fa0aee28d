package mmstest

import (
	"encoding/json"
	"testing"
	"time"
)

// formatOf is an output_config.format member with the given schema.
func formatOf(schema string) string {
	return `"output_config":{"format":{"type":"json_schema","schema":` + schema + `}},`
}

// TestStructuredOutput checks the reply text for a table of schemas: the
// values are the expected ones (each matches its schema by construction of
// the case), date-time formats follow the server's clock, and a Turn's
// Text replaces the JSON.
func TestStructuredOutput(t *testing.T) {
	clock := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	const obj = `"type":"object","additionalProperties":false`
	tests := []struct {
		name, schema, want string
	}{
		{"strings and numbers", `{` + obj + `,"properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"number"},` +
			`"d":{"type":"boolean"},"e":{"type":"null"},"skip":{"type":"string"}},"required":["a","b","c","d","e"]}`,
			`{"a":"Sort","b":1,"c":1,"d":true,"e":null}`},
		{"enum and const", `{` + obj + `,"properties":{"k":{"enum":["x","y"]},"v":{"const":3}},"required":["k","v"]}`,
			`{"k":"x","v":3}`},
		{"type list takes the non-null type", `{` + obj + `,"properties":{"n":{"type":["null","integer"]}},"required":["n"]}`, `{"n":1}`},
		{"anyOf takes the first non-null branch", `{` + obj + `,"properties":{"u":{"anyOf":[{"type":"null"},{"type":"boolean"},{"type":"string"}]}},"required":["u"]}`,
			`{"u":true}`},
		{"array with minItems", `{` + obj + `,"properties":{"l":{"type":"array","items":{"type":"integer"},"minItems":2}},"required":["l"]}`,
			`{"l":[1,1]}`},
		{"array without minItems", `{` + obj + `,"properties":{"l":{"type":"array","items":{"type":"integer"}}},"required":["l"]}`, `{"l":[]}`},
		{"nested object", `{` + obj + `,"properties":{"o":{` + obj + `,"properties":{"p":{"type":"string"}},"required":["p"]}},"required":["o"]}`,
			`{"o":{"p":"Sort"}}`},
		{"formats", `{` + obj + `,"properties":{"dt":{"type":"string","format":"date-time"},"d":{"type":"string","format":"date"},` +
			`"t":{"type":"string","format":"time"},"du":{"type":"string","format":"duration"},"em":{"type":"string","format":"email"},` +
			`"h":{"type":"string","format":"hostname"},"u":{"type":"string","format":"uri"},"v4":{"type":"string","format":"ipv4"},` +
			`"v6":{"type":"string","format":"ipv6"},"id":{"type":"string","format":"uuid"}},"required":["dt","d","t","du","em","h","u","v4","v6","id"]}`,
			`{"dt":"2026-03-04T05:06:07Z","d":"2026-03-04","t":"05:06:07Z","du":"PT1H","em":"user@example.com","h":"example.com",` +
				`"u":"https://example.com/","v4":"192.0.2.1","v6":"2001:db8::1","id":"00000000-0000-4000-8000-000000000000"}`},
		{"$defs reference", `{` + obj + `,"properties":{"p":{"$ref":"#/$defs/point"}},"required":["p"],` +
			`"$defs":{"point":{` + obj + `,"properties":{"x":{"type":"number"}},"required":["x"]}}}`, `{"p":{"x":1}}`},
		{"recursion through # ends at null", `{` + obj + `,"properties":{"v":{"type":"integer"},"next":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["v","next"]}`,
			`{"v":1,"next":{"v":1,"next":{"v":1,"next":{"v":1,"next":{"v":1,"next":null}}}}}`},
		{"recursion through $defs and a type list", `{"$ref":"#/$defs/node","$defs":{"node":{"type":["object","null"],"additionalProperties":false,` +
			`"properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"},"minItems":1}},"required":["kids"]}}}`,
			`{"kids":[{"kids":[{"kids":[null]}]}]}`},
		{"top-level array", `{"type":"array","items":{"type":"string","format":"date"},"minItems":1}`, `["2026-03-04"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !json.Valid([]byte(tt.schema)) {
				t.Fatalf("bad case: %s", tt.schema)
			}
			s := newTestServer(t, WithClock(func() time.Time { return clock }))
			for _, member := range []string{formatOf(tt.schema), `"output_format":{"type":"json_schema","schema":` + tt.schema + `},`} {
				m := postMessage(t, s, create(member+`"messages":[{"role":"user","content":"Sort"}]`), "structured-outputs-2025-12-15")
				if got := block(m, 0)["text"]; got != tt.want {
					t.Errorf("%s\n got %s\nwant %s", member[:15], got, tt.want)
				}
			}
		})
	}

	s := newTestServer(t, WithScript(Turn{Text: "not JSON"}))
	schema := `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}},"required":["a"]}`
	if m := postMessage(t, s, create(formatOf(schema)+`"messages":`+hi)); block(m, 0)["text"] != "not JSON" {
		t.Errorf("scripted text: %v", m["content"])
	}
	if m := postMessage(t, s, `{"model":"mms-large-1","max_tokens":2,`+formatOf(schema)+`"messages":[{"role":"user","content":"Sort it"}]}`); block(m, 0)["text"] != `{"a":"So` ||
		m["stop_reason"] != "max_tokens" {
		t.Errorf("truncated: %v %v", m["content"], m["stop_reason"])
	}
}

// TestStructuredOutputLimits checks the refusal of a format schema with an
// open object or an unsupported format, both sides of each rule, on
// create and count_tokens and for both format members.
func TestStructuredOutputLimits(t *testing.T) {
	const closed = `"type":"object","additionalProperties":false`
	tests := []struct {
		name, schema, msg string // msg "" means accepted; it names the path after the format member
	}{
		{"closed object", `{` + closed + `,"properties":{"a":{"type":"string"}}}`, ""},
		{"open object", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`.schema: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"additionalProperties true", `{"type":"object","additionalProperties":true}`,
			`.schema: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`,
			`.schema: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"properties without type", `{"properties":{"a":{"type":"string"}}}`,
			`.schema: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"open nested object", `{` + closed + `,"properties":{"a":{"type":"object"}}}`,
			`.schema.properties.a: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"open object in items", `{"type":"array","items":{"type":["object","null"]}}`,
			`.schema.items: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"open object in anyOf", `{"anyOf":[{"type":"null"},{"type":"object"}]}`,
			`.schema.anyOf.1: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"open object in $defs", `{"$ref":"#/$defs/x","$defs":{"x":{"type":"object"}}}`,
			`.schema.$defs.x: For 'object' type, 'additionalProperties' must be explicitly set to false`},
		{"closed object in $defs", `{"$ref":"#/$defs/x","$defs":{"x":{` + closed + `}}}`, ""},
		{"supported format", `{"type":"string","format":"ipv6"}`, ""},
		{"unsupported format", `{` + closed + `,"properties":{"a":{"type":"string","format":"phone"}}}`,
			`.schema.properties.a.format: unsupported format "phone"; supported: date, date-time, duration, email, hostname, ipv4, ipv6, time, uri, uuid`},
	}
	s := newTestServer(t)
	for _, tt := range tests {
		for _, form := range []struct{ path, member string }{
			{"output_config.format", formatOf(tt.schema)},
			{"output_format", `"output_format":{"type":"json_schema","schema":` + tt.schema + `},`},
		} {
			for _, body := range []struct{ path, body string }{
				{messagesPath, create(form.member + `"messages":` + hi)},
				{countPath, count(form.member + `"messages":` + hi)},
			} {
				resp, got := post(t, s, body.path, body.body, "structured-outputs-2025-12-15")
				var e errorBody
				_ = json.Unmarshal(got, &e)
				switch {
				case tt.msg == "" && resp.StatusCode != 200:
					t.Errorf("%s %s %s: %d %s", tt.name, form.path, body.path, resp.StatusCode, got)
				case tt.msg != "" && (resp.StatusCode != 400 || e.Error.Message != form.path+tt.msg):
					t.Errorf("%s %s %s: %d %s\nwant 400 %s", tt.name, form.path, body.path, resp.StatusCode, got, form.path+tt.msg)
				}
			}
		}
	}
}
