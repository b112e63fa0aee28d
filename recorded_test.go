package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/fixtures"

	"github.com/stretchr/testify/require"
)

// recordedDir returns ../shared/recorded for the benchmarks that measure
// real traffic, skipping them when it is absent. (Tests never skip: they
// run over the project fixtures and add the recorded layer when present.)
func recordedDir(b *testing.B) string {
	b.Helper()
	dir := fixtures.RecordedDir(b)
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("../shared/recorded is absent (%v): this benchmark measures the recorded traffic", err)
	}
	return dir
}

// messageFiles lists the Messages response bodies and request bodies of
// both layers: the project fixtures (testdata/golden/messages,
// testdata/golden/requests) and, when present, the recorded traffic
// (../shared/recorded/messages: X.json responses, X.request.json requests;
// headers files are neither).
func messageFiles(t *testing.T) (responses, requests []string) {
	t.Helper()
	responses = fixtures.Project(t, "golden/messages/*.json")
	requests = fixtures.Project(t, "golden/requests/*.json")
	for _, f := range fixtures.Recorded(t, "messages/*.json") {
		switch {
		case strings.HasSuffix(f, ".request.json"):
			requests = append(requests, f)
		case strings.HasSuffix(f, ".headers.json"):
		default:
			responses = append(responses, f)
		}
	}
	return responses, requests
}

// requestBodyFiles lists the project's request bodies: the Messages
// requests (golden/requests, count_tokens_* for count_tokens) and the
// requests the service refused (golden/errors/*.request.json).
func requestBodyFiles(t *testing.T) []string {
	t.Helper()
	return append(fixtures.Project(t, "golden/requests/*.json"), fixtures.Project(t, "golden/errors/*.request.json")...)
}

// jsonAny decodes data into generic JSON values (numbers kept exact).
func jsonAny(t testing.TB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, truncate(data))
	}
	return v
}

func truncate(data []byte) string {
	if len(data) > 2000 {
		return string(data[:2000]) + "…"
	}
	return string(data)
}

// requireJSONEqual fails when want and got are not the same JSON value.
func requireJSONEqual(t testing.TB, want, got []byte) {
	t.Helper()
	if diff := cmp.Diff(jsonAny(t, want), jsonAny(t, got)); diff != "" {
		t.Fatalf("JSON differs (-want +got):\n%s", diff)
	}
}

// findUnknown walks v and returns the paths of every Unknown* value inside
// (unions that fell back to their Unknown variant).
func findUnknown(path string, v reflect.Value) []string {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return findUnknown(path, v.Elem())
	case reflect.Struct:
		if strings.HasPrefix(v.Type().Name(), "Unknown") {
			return []string{fmt.Sprintf("%s: %s", path, v.Type().Name())}
		}
		var out []string
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.IsExported() {
				out = append(out, findUnknown(path+"."+f.Name, v.Field(i))...)
			}
		}
		return out
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // json.RawMessage
			return nil
		}
		var out []string
		for i := 0; i < v.Len(); i++ {
			out = append(out, findUnknown(fmt.Sprintf("%s[%d]", path, i), v.Index(i))...)
		}
		return out
	}
	return nil
}

// extraKeys collects the names of the members kept in Extra anywhere in v
// (what this SDK version does not model).
func extraKeys(path string, v reflect.Value, out map[string]bool) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if !v.IsNil() {
			extraKeys(path, v.Elem(), out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Name == "Extra" {
				for _, k := range v.Field(i).MapKeys() {
					out[path+"."+k.String()] = true
				}
				continue
			}
			extraKeys(path+"."+f.Name, v.Field(i), out)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			extraKeys(path+"[]", v.Index(i), out)
		}
	}
}

// TestRecordedResponses: every response on file (messageFiles) decodes
// with only known variants, and json.Marshal gives back the same JSON.
func TestRecordedResponses(t *testing.T) {
	responses, _ := messageFiles(t)
	for _, file := range responses {
		t.Run(fixtures.Name(file), func(t *testing.T) {
			data := fixtures.Read(t, file)
			msg, err := codec.Decode[Message](data)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			var viaStd Message
			if err := json.Unmarshal(data, &viaStd); err != nil {
				t.Fatalf("json.Unmarshal: %v", err)
			}
			if diff := cmp.Diff(msg, viaStd); diff != "" {
				t.Fatalf("codec.Decode and json.Unmarshal differ:\n%s", diff)
			}
			if unknown := findUnknown("message", reflect.ValueOf(msg)); len(unknown) > 0 {
				t.Errorf("unknown variants:\n%s", strings.Join(unknown, "\n"))
			}
			if len(msg.Content) == 0 {
				t.Errorf("no content decoded")
			}
			extra := map[string]bool{}
			extraKeys("message", reflect.ValueOf(msg), extra)
			if len(extra) > 0 {
				keys := make([]string, 0, len(extra))
				for k := range extra {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				t.Logf("kept in Extra (unmodelled): %s", strings.Join(keys, ", "))
			}
			got, err := json.Marshal(msg)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			requireJSONEqual(t, data, got)
		})
	}
}

// TestRecordedRequests: the messages (and system) of every request on file
// decode with only known variants and re-encode, in request form, to the
// same JSON.
func TestRecordedRequests(t *testing.T) {
	_, requests := messageFiles(t)
	for _, file := range requests {
		t.Run(fixtures.Name(file), func(t *testing.T) {
			data := fixtures.Read(t, file)
			var body struct {
				Messages json.RawMessage `json:"messages"`
				System   json.RawMessage `json:"system"`
			}
			if err := json.Unmarshal(data, &body); err != nil {
				t.Fatal(err)
			}
			var msgs []MessageParam
			if err := json.Unmarshal(body.Messages, &msgs); err != nil {
				t.Fatalf("decode messages: %v", err)
			}
			if unknown := findUnknown("messages", reflect.ValueOf(msgs)); len(unknown) > 0 {
				t.Errorf("unknown variants:\n%s", strings.Join(unknown, "\n"))
			}
			for i, m := range msgs {
				if err := m.validate(fmt.Sprintf("messages[%d]", i)); err != nil {
					t.Errorf("recorded request fails validation: %v", err)
				}
			}
			got, err := json.Marshal(msgs)
			if err != nil {
				t.Fatalf("encode messages: %v", err)
			}
			requireJSONEqual(t, body.Messages, got)

			if len(body.System) == 0 || codec.IsNull(body.System) {
				return
			}
			var system SystemPrompt
			if err := json.Unmarshal(body.System, &system); err != nil {
				t.Fatalf("decode system: %v", err)
			}
			if system.Blocks == nil {
				return // a plain string: nothing typed to check
			}
			if err := system.validate("system"); err != nil {
				t.Errorf("recorded system fails validation: %v", err)
			}
			got, err = json.Marshal(system)
			require.NoError(t, err)
			requireJSONEqual(t, body.System, got)
		})
	}
}

// Members injected into the replies on file to check both encoding modes.
const injectedMember = "x_future_member"

var documentCitationTypes = map[string]bool{"char_location": true, "page_location": true, "content_block_location": true}

// inject adds injectedMember to every typed object of a content tree (not
// inside tool inputs and input schemas, which are opaque) and a file_id to document citations.
func inject(v any) {
	switch v := v.(type) {
	case map[string]any:
		if typ, ok := v["type"].(string); ok {
			v[injectedMember] = json.Number("1")
			if documentCitationTypes[typ] {
				v["file_id"] = "file_011Injected"
			}
		}
		for k, x := range v {
			if k != "input" && k != "input_schema" { // opaque JSON (tool inputs, MCP tool schemas)
				inject(x)
			}
		}
	case []any:
		for _, x := range v {
			inject(x)
		}
	}
}

// requestView removes from a content tree what request mode must drop:
// the injected member, members the SDK does not model (listed), and the
// response-only members (DESIGN.md): a document citation's file_id, a
// tool-search error's error_message and an advisor result's stop_reason.
func requestView(v any, unmodelled map[string]bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		typ, _ := v["type"].(string)
		for k, x := range v {
			if k == injectedMember || unmodelled[k] || (k == "file_id" && documentCitationTypes[typ]) ||
				(k == "error_message" && typ == "tool_search_tool_result_error") ||
				(k == "stop_reason" && (typ == "advisor_result" || typ == "advisor_redacted_result")) {
				continue
			}
			if k == "input" || k == "input_schema" {
				out[k] = x
				continue
			}
			out[k] = requestView(x, unmodelled)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = requestView(x, unmodelled)
		}
		return out
	}
	return v
}

// TestRecordedReplySentBack: every reply on file, with an unknown member
// injected into each typed object and a file_id into each document
// citation, still round-trips in response mode; sent back as an assistant
// MessageParam it writes the request form only: the same content minus the
// injected and unmodelled members and the citation file_id.
func TestRecordedReplySentBack(t *testing.T) {
	responses, _ := messageFiles(t)
	for _, file := range responses {
		t.Run(fixtures.Name(file), func(t *testing.T) {
			data := fixtures.Read(t, file)
			tree := jsonAny(t, data).(map[string]any)
			inject(tree["content"])
			mutated, err := json.Marshal(tree)
			require.NoError(t, err)

			msg, err := codec.Decode[Message](mutated)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if unknown := findUnknown("message", reflect.ValueOf(msg)); len(unknown) > 0 {
				t.Fatalf("unknown variants:\n%s", strings.Join(unknown, "\n"))
			}
			got, err := json.Marshal(msg)
			require.NoError(t, err)
			requireJSONEqual(t, mutated, got) // response mode keeps everything

			// Sent back unchanged through a MessageParam literal.
			param := MessageParam{Role: RoleAssistant, Content: msg.Content}
			enc, err := json.Marshal(param)
			require.NoError(t, err)
			if bytes.Contains(enc, []byte(injectedMember)) {
				t.Errorf("request form carries an unknown member")
			}
			if bytes.Contains(enc, []byte("file_011Injected")) {
				t.Errorf("request form carries a citation file_id")
			}
			unmodelled := map[string]bool{"abort_reason": true} // not in the spec; kept in Extra
			want := map[string]any{
				"role":    "assistant",
				"content": requestView(tree["content"], unmodelled),
			}
			if diff := cmp.Diff(want, jsonAny(t, enc)); diff != "" {
				t.Errorf("request form differs (-want +got):\n%s", diff)
			}
			if err := param.validate("messages[1]"); err != nil {
				t.Errorf("a recorded reply fails request validation: %v", err)
			}
		})
	}
}

// TestRecordedStreamBlocks: the blocks of the content_block_start events
// of every stream on file (streamFiles) and the message of its
// message_start decode with only known variants and re-encode to the same
// JSON. (The stream decoder and accumulator have their own tests; this
// reads the data lines directly, so a payload split over several data
// lines is left to them.)
func TestRecordedStreamBlocks(t *testing.T) {
	for _, file := range streamFiles(t) {
		t.Run(fixtures.Name(file), func(t *testing.T) {
			data := fixtures.Read(t, file)
			seen := 0
			for _, line := range strings.Split(string(data), "\n") {
				payload, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "data:")
				if !ok {
					continue
				}
				var ev struct {
					ContentBlock json.RawMessage `json:"content_block"`
					Message      json.RawMessage `json:"message"`
				}
				if json.Unmarshal([]byte(payload), &ev) != nil {
					continue // not JSON (or not ours): the stream tests cover it
				}
				var in []byte
				var v any
				var err error
				switch {
				case ev.ContentBlock != nil:
					in = ev.ContentBlock
					v, err = contentBlockUnion.Decode(in)
				case ev.Message != nil:
					in = withServiceTier(t, ev.Message)
					var m Message
					err = json.Unmarshal(in, &m)
					v = m
				default:
					continue
				}
				seen++
				if err != nil {
					t.Fatalf("decode %s: %v", truncate(in), err)
				}
				if unknown := findUnknown("value", reflect.ValueOf(v)); len(unknown) > 0 {
					t.Errorf("unknown variants in %s:\n%s", truncate(in), strings.Join(unknown, "\n"))
				}
				out, err := json.Marshal(v)
				require.NoError(t, err)
				requireJSONEqual(t, in, out)
			}
			if seen == 0 {
				t.Errorf("no message_start or content_block_start data found")
			}
		})
	}
}

// withServiceTier adds "service_tier":null to a message whose usage lacks
// it: usage.service_tier is always written (documented on Message).
func withServiceTier(t *testing.T, msg []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatal(err)
	}
	var usage map[string]json.RawMessage
	if err := json.Unmarshal(m["usage"], &usage); err != nil || usage == nil {
		return msg
	}
	if _, ok := usage["service_tier"]; ok {
		return msg
	}
	usage["service_tier"] = json.RawMessage("null")
	m["usage"], _ = json.Marshal(usage)
	out, _ := json.Marshal(m)
	return out
}

// TestFixturesCoverEveryVariant: the project fixtures hold every variant
// the SDK decodes by "type" (content blocks, citations, tool-result
// payloads, sources, callers, usage and context pieces, request config),
// every delta, stream event, stop reason and error type, so that the tests
// over them exercise everything without ../shared.
func TestFixturesCoverEveryVariant(t *testing.T) {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && (k == "type" || k == "stop_reason") {
					seen[k+":"+s] = true
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, pattern := range []string{"golden/messages/*.json", "golden/requests/*.json", "golden/errors/*.json", "golden/files/*.json"} {
		for _, f := range fixtures.Project(t, pattern) {
			walk(jsonAny(t, fixtures.Read(t, f)))
		}
	}
	for _, f := range fixtures.Project(t, "streams/*.sse") {
		for _, ev := range splitSSE(t, fixtures.Read(t, f)) {
			seen["event:"+ev.name] = true
			walk(jsonAny(t, ev.data))
		}
	}

	var want []string
	types := func(names ...string) {
		for _, n := range names {
			want = append(want, "type:"+n)
		}
	}
	types(slices.Collect(maps.Keys(contentBlockUnion.Types()))...)
	for _, table := range [][]string{
		slices.Collect(maps.Keys(citationUnion.Types())), slices.Collect(maps.Keys(callerUnion.Types())),
		slices.Collect(maps.Keys(imageSourceUnion.Types())), slices.Collect(maps.Keys(documentSourceUnion.Types())),
		slices.Collect(maps.Keys(browserStateChangeUnion.Types())), slices.Collect(maps.Keys(toolChangeRefUnion.Types())),
		slices.Collect(maps.Keys(webSearchToolResultContentUnion.Types())), slices.Collect(maps.Keys(webFetchToolResultContentUnion.Types())),
		slices.Collect(maps.Keys(codeExecutionToolResultContentUnion.Types())), slices.Collect(maps.Keys(bashCodeExecutionToolResultContentUnion.Types())),
		slices.Collect(maps.Keys(textEditorCodeExecutionToolResultContentUnion.Types())), slices.Collect(maps.Keys(toolSearchToolResultContentUnion.Types())),
		slices.Collect(maps.Keys(advisorToolResultContentUnion.Types())), slices.Collect(maps.Keys(iterationUsageUnion.Types())),
		slices.Collect(maps.Keys(fallbackCreditStatusUnion.Types())), slices.Collect(maps.Keys(appliedEditUnion.Types())),
		slices.Collect(maps.Keys(cacheMissUnion.Types())), slices.Collect(maps.Keys(contextEditUnion.Types())),
		slices.Collect(maps.Keys(thinkingConfigUnion.Types())), slices.Collect(maps.Keys(toolChoiceUnion.Types())),
		slices.Collect(maps.Keys(sentinelByType)), slices.Collect(maps.Keys(threadParamUnion.Types())),
		slices.Collect(maps.Keys(urlSourceFilterUnion.Types())),
	} {
		types(table...)
	}
	types("text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta", "compaction_delta")
	for _, r := range []StopReason{StopReasonEndTurn, StopReasonMaxTokens, StopReasonStopSequence, StopReasonToolUse,
		StopReasonPauseTurn, StopReasonRefusal, StopReasonModelContextWindowExceeded, StopReasonCompaction} {
		want = append(want, "stop_reason:"+string(r))
	}
	for _, name := range []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop", "ping", "error"} {
		want = append(want, "event:"+name)
	}
	var missing []string
	for _, w := range want {
		if !seen[w] {
			missing = append(missing, w)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no project fixture holds:\n%s", strings.Join(missing, "\n"))
	}
}
