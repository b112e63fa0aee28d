package mmstest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recordedDir holds bodies recorded from the real service; they are read
// in place.
const recordedDir = "../../shared/recorded"

// recordedFiles lists recorded files matching pattern (relative to
// recordedDir), skipping the test when the recordings are absent.
func recordedFiles(t *testing.T, pattern string) []string {
	t.Helper()
	if _, err := os.Stat(recordedDir); err != nil {
		t.Skip("../shared/recorded is absent")
	}
	files, err := filepath.Glob(filepath.Join(recordedDir, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded files match %s (%v)", pattern, err)
	}
	return files
}

func readJSON(t *testing.T, file string) map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

// betaMarkers pairs member names and "type" values with the beta a request
// holding them needs (messages.md §2.2, §3.2, §5.3), independently of the
// fake's schema table.
var betaMarkers = map[string]string{
	"context_management":  "context-management-2025-06-27",
	"compaction":          "context-management-2025-06-27",
	"mcp_servers":         "mcp-client-2025-04-04",
	"mcp_tool_use":        "mcp-client-2025-04-04",
	"mcp_tool_result":     "mcp-client-2025-04-04",
	"advisor_20260301":    "advisor-tool-2026-03-01",
	"advisor_tool_result": "advisor-tool-2026-03-01",
	"speed":               "fast-mode-2026-02-01",
	"output_format":       "structured-outputs-2025-12-15",
}

// betasFor derives the betas a body needs from its member names and type
// values.
func betasFor(body []byte) []string {
	var betas []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				markers := []string{k}
				if typ, ok := x.(string); ok && k == "type" {
					markers = append(markers, typ)
				}
				for _, m := range markers {
					if b := betaMarkers[m]; b != "" && !slices.Contains(betas, b) {
						betas = append(betas, b)
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	var v any
	_ = json.Unmarshal(body, &v)
	walk(v)
	return betas
}

// recordedServer serves, besides the default models, every model the files
// name, without limits or capabilities, so that recorded bodies are sent
// unchanged.
func recordedServer(t *testing.T, files []string) *Server {
	models := DefaultModels()
	for _, f := range files {
		var id string
		_ = json.Unmarshal(readJSON(t, f)["model"], &id)
		if id != "" && !slices.ContainsFunc(models, func(m Model) bool { return m.ID == id }) {
			models = append(models, Model{ID: id})
		}
	}
	return newTestServer(t, WithModels(models))
}

// TestRecordedRequestsAccepted sends every recorded request body unchanged.
func TestRecordedRequestsAccepted(t *testing.T) {
	files := recordedFiles(t, "messages/*.request.json")
	files = append(files, recordedFiles(t, "streams/*.request.json")...)
	countFile := filepath.Join(recordedDir, "other/pydantic__count_tokens_native_tools.request.json")
	files = append(files, countFile)
	s := recordedServer(t, files)
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		path := messagesPath
		if f == countFile {
			path = countPath
		}
		resp, got := post(t, s, path, string(body), betasFor(body)...)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", filepath.Base(f), resp.StatusCode, got)
		}
	}
}

// recordedResponses returns each recorded Message body by file name, and a
// server for their models.
func recordedResponses(t *testing.T) (map[string]map[string]json.RawMessage, *Server) {
	out := map[string]map[string]json.RawMessage{}
	var files []string
	for _, f := range recordedFiles(t, "messages/*.json") {
		if !strings.HasSuffix(f, ".request.json") {
			out[filepath.Base(f)] = readJSON(t, f)
			files = append(files, f)
		}
	}
	return out, recordedServer(t, files)
}

// sendBack builds a request that passes a recorded response's content back
// as the assistant turn, after a user turn and before one answering its
// tool_use blocks.
func sendBack(t *testing.T, msg map[string]json.RawMessage, content json.RawMessage) string {
	t.Helper()
	var blocks []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	if err := json.Unmarshal(content, &blocks); err != nil {
		t.Fatal(err)
	}
	answer := `"Thanks."`
	var results []string
	for _, b := range blocks {
		if b.Type == "tool_use" {
			results = append(results, `{"type":"tool_result","tool_use_id":"`+b.ID+`","content":"ok"}`)
		}
	}
	if results != nil {
		answer = "[" + strings.Join(results, ",") + "]"
	}
	return `{"model":` + string(msg["model"]) + `,"max_tokens":1024,"messages":[{"role":"user","content":"Hi"},` +
		`{"role":"assistant","content":` + string(content) + `},{"role":"user","content":` + answer + `}]}`
}

// TestRecordedResponsesSentBack checks that every recorded response's
// content is accepted back as an assistant turn, thinking signatures the
// fake did not issue included.
func TestRecordedResponsesSentBack(t *testing.T) {
	responses, s := recordedResponses(t)
	for name, msg := range responses {
		body := sendBack(t, msg, msg["content"])
		resp, got := post(t, s, messagesPath, body, betasFor([]byte(body))...)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", name, resp.StatusCode, got)
		}
	}
}

// TestRecordedResponsesStrict checks that a response block sent back with
// a member the request form lacks is refused, naming its path.
func TestRecordedResponsesStrict(t *testing.T) {
	responses, s := recordedResponses(t)
	// with returns content with member set in the object at path (block
	// index, then member names).
	with := func(content json.RawMessage, member string, value any, path ...any) json.RawMessage {
		var blocks []any
		_ = json.Unmarshal(content, &blocks)
		obj := blocks[path[0].(int)].(map[string]any)
		for _, p := range path[1:] {
			switch p := p.(type) {
			case string:
				obj = obj[p].(map[string]any)
			case int:
				obj = obj["citations"].([]any)[p].(map[string]any)
			}
		}
		obj[member] = value
		return json.RawMessage(mustJSON(t, blocks))
	}
	for name, msg := range responses {
		body := sendBack(t, msg, with(msg["content"], "x_unknown", 1, 0))
		resp, got := post(t, s, messagesPath, body, betasFor([]byte(body))...)
		wantError(t, resp, got, 400, "invalid_request_error", "messages.1.content.0.x_unknown: Extra inputs are not permitted")
		if t.Failed() {
			t.Logf("in %s", name)
		}
	}
	msg := responses["pydantic__citations_char_location.json"]
	if msg == nil {
		t.Fatal("pydantic__citations_char_location.json is missing")
	}
	body := sendBack(t, msg, with(msg["content"], "file_id", "file_011CeDdt", 0, 0))
	resp, got := post(t, s, messagesPath, body)
	wantError(t, resp, got, 400, "invalid_request_error", "messages.1.content.0.citations.0.file_id: Extra inputs are not permitted")
}

// TestRecordedErrors sends the recorded requests that the service refused
// and expects the recorded status, error type and message. The server
// serves the models the service knew, with the capabilities the recorded
// refusals imply (no xhigh effort on claude-opus-4-6).
func TestRecordedErrors(t *testing.T) {
	yes := CapabilitySupport{Supported: true}
	models := append(DefaultModels(), Model{ID: "claude-sonnet-4-6"}, Model{ID: "claude-opus-4-6",
		Capabilities: &ModelCapabilities{Effort: EffortCapability{Supported: true, Low: yes, Medium: yes, High: yes, Max: yes}}})
	s := newTestServer(t, WithModels(models))
	for _, f := range recordedFiles(t, "errors/4[0-9][0-9]__*.request.json") {
		status := 0
		_, _ = fmt.Sscanf(filepath.Base(f), "%d__", &status)
		if status == 401 {
			continue // credentials, not the body
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want errorBody
		raw, err := os.ReadFile(strings.TrimSuffix(f, ".request.json") + ".json")
		if err != nil || json.Unmarshal(raw, &want) != nil {
			t.Fatalf("%s: no recorded error body (%v)", f, err)
		}
		resp, got := post(t, s, messagesPath, string(body), betasFor(body)...)
		wantError(t, resp, got, status, want.Error.Type, "")
		if e := decodeError(t, got); e.Error.Message != want.Error.Message {
			t.Errorf("%s: message\n got: %s\nwant: %s", filepath.Base(f), e.Error.Message, want.Error.Message)
		}
	}
}
