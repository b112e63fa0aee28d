package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/fixtures"

	"github.com/stretchr/testify/require"
)

func readJSON(t *testing.T, file string) map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
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
	"tool_changes":        "compact-2026-09-04", // signed compaction blocks (api-version-2026-10-21 §5.4)
	"mcp_servers":         "mcp-client-2025-04-04",
	"mcp_tool_use":        "mcp-client-2025-04-04",
	"mcp_tool_result":     "mcp-client-2025-04-04",
	"advisor_20260301":    "advisor-tool-2026-03-01",
	"advisor_tool_result": "advisor-tool-2026-03-01",
	"speed":               "fast-mode-2026-02-01",
	"output_format":       "structured-outputs-2025-12-15",
	// §2.2, §3.2, §5.3: the pieces the project fixtures add.
	"mcp_toolset":           "mcp-client-2025-11-20",
	"fallback":              "server-side-fallback-2026-06-01",
	"fallbacks":             "server-side-fallback-2026-06-01",
	"fallback_credit_token": "fallback-credit-2026-07-01",
	"diagnostics":           "cache-diagnosis-2026-04-07",
	"tool_addition":         "mid-conversation-tool-changes-2026-07-01",
	"tool_removal":          "mid-conversation-tool-changes-2026-07-01",
	"computer_20250124":     "computer-use-2025-01-24",
	// api-version-2026-10-21 §5.3, §5.4: system messages and inline tools.
	// A value may name several betas, space-separated.
	"clear_at":        "mid-conversation-system-clear-at-2026-08-21",
	"output_config":   "mid-conversation-output-config-2026-07-01", // harmless on the top-level member
	"tool_definition": "inline-tools-2026-09-15 mcp-client-2026-09-15",
	"thread":          "message-threads-2026-08-12",
	// api-version-2026-10-21.md §5.4, §5.5: a listing comes with the newest
	// MCP client generation, which also pins toolset tools.
	"mcp_tool_listing": "mcp-client-2026-09-15",
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
					for _, b := range strings.Fields(betaMarkers[m]) {
						if !slices.Contains(betas, b) {
							betas = append(betas, b)
						}
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

// TestRecordedRequestsAccepted sends every request body unchanged: the
// project's (testdata/golden/requests; count_tokens_* to count_tokens) and,
// when present, the recorded ones (../shared/recorded, read in place).
func TestRecordedRequestsAccepted(t *testing.T) {
	files := fixtures.Project(t, "golden/requests/*.json")
	if fixtures.HaveRecorded(t) {
		files = append(files, fixtures.Recorded(t, "messages/*.request.json")...)
		files = append(files, fixtures.Recorded(t, "streams/*.request.json")...)
		files = append(files, fixtures.Recorded(t, "other/pydantic__count_tokens_native_tools.request.json")...)
	}
	s := recordedServer(t, files)
	for _, f := range files {
		body, err := os.ReadFile(f)
		require.NoError(t, err)
		path := messagesPath
		if strings.Contains(filepath.Base(f), "count_tokens") {
			path = countPath
		}
		body = withContainers(t, s, withUploads(t, s, body))
		resp, got := post(t, s, path, string(body), betasFor(body)...)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", fixtures.Name(f), resp.StatusCode, got)
		}
	}
}

// recordedResponses returns each Message body by file name (project
// fixtures, and the recorded ones when present), and a server for their
// models.
func recordedResponses(t *testing.T) (map[string]map[string]json.RawMessage, *Server) {
	out := map[string]map[string]json.RawMessage{}
	var files []string
	for _, f := range fixtures.Both(t, "golden/messages/*.json", "messages/*.json") {
		if !strings.HasSuffix(f, ".request.json") && !strings.HasSuffix(f, ".headers.json") {
			out[fixtures.Name(f)] = readJSON(t, f)
			files = append(files, f)
		}
	}
	return out, recordedServer(t, files)
}

// withUploads uploads to s a file for every file id that body names as an
// image or document source or in a container_upload (ids the fake does not
// hold are refused, as the service refuses them), and returns body with
// those ids replaced by the uploaded ones.
func withUploads(t *testing.T, s *Server, body []byte) []byte {
	t.Helper()
	done := map[string]bool{}
	for _, ref := range messageFileRefs(body) {
		if done[ref.id] {
			continue
		}
		done[ref.id] = true
		name, contentType, content := "input.csv", "text/csv", "a,b\n1,2\n"
		switch ref.kind {
		case "image":
			name, contentType, content = "dot.png", "image/png", "\x89PNG\r\n\x1a\n"
		case "document":
			name, contentType, content = "notes.txt", "text/plain", "notes"
		}
		f := uploadFile(t, s, name, contentType, content)
		body = bytes.ReplaceAll(body, []byte(strconv.Quote(ref.id)), []byte(strconv.Quote(f.ID)))
	}
	return body
}

// containerRef matches a request's container id, in either form.
var containerRef = regexp.MustCompile(`"container":\s*(?:\{\s*"id":\s*)?"([^"]+)"`)

// withContainers replaces the container ids of a request body with ids the
// server issued, as it refuses others.
func withContainers(t *testing.T, s *Server, body []byte) []byte {
	t.Helper()
	for _, m := range containerRef.FindAllSubmatch(body, -1) {
		_, got := post(t, s, messagesPath, create(`"tools":[{"type":"code_execution_20250825","name":"code_execution"}],"messages":`+hi))
		var msg struct {
			Container struct {
				ID string `json:"id"`
			} `json:"container"`
		}
		if err := json.Unmarshal(got, &msg); err != nil || msg.Container.ID == "" {
			t.Fatalf("no container issued: %v %s", err, got)
		}
		body = bytes.ReplaceAll(body, []byte(strconv.Quote(string(m[1]))), []byte(strconv.Quote(msg.Container.ID)))
	}
	return body
}

// documentCitations are the citation types whose response form carries a
// file_id that the request form lacks (messages.md §3.5, §4.4).
var documentCitations = map[string]bool{"char_location": true, "page_location": true, "content_block_location": true}

// requestContent is a response's content as a client sends it back: the
// document citations without their response-only file_id, advisor results
// without their response-only stop_reason.
func requestContent(t *testing.T, content json.RawMessage) json.RawMessage {
	t.Helper()
	var v any
	if err := json.Unmarshal(content, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(v any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			switch typ, _ := v["type"].(string); {
			case documentCitations[typ]:
				delete(v, "file_id")
			case typ == "advisor_result" || typ == "advisor_redacted_result":
				delete(v, "stop_reason")
			}
			for _, x := range v {
				strip(x)
			}
		case []any:
			for _, x := range v {
				strip(x)
			}
		}
	}
	strip(v)
	return json.RawMessage(mustJSON(t, v))
}

// sendBack builds a request that passes a response's content back as the
// assistant turn, after a user turn (none when it opens with a compaction
// block, which must open the conversation) and before one answering its
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
	first := `{"role":"user","content":"Hi"},`
	if assistantAt(content) == 0 {
		first = "" // the summary replaces what came before it: it opens the conversation
	}
	return `{"model":` + string(msg["model"]) + `,"max_tokens":1024,"messages":[` + first +
		`{"role":"assistant","content":` + string(content) + `},{"role":"user","content":` + answer + `}]}`
}

// assistantAt is the index of the assistant turn sendBack builds: 0 when
// the content opens with a compaction block, else 1.
func assistantAt(content json.RawMessage) int {
	var blocks []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(content, &blocks) == nil && len(blocks) > 0 && blocks[0].Type == "compaction" {
		return 0
	}
	return 1
}

// TestRecordedResponsesSentBack checks that every response's content on
// file is accepted back as an assistant turn (in request form: document
// citations without file_id), thinking signatures the fake did not issue
// included.
func TestRecordedResponsesSentBack(t *testing.T) {
	responses, s := recordedResponses(t)
	for name, msg := range responses {
		body := string(withUploads(t, s, []byte(sendBack(t, msg, requestContent(t, msg["content"])))))
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
		body := string(withUploads(t, s, []byte(sendBack(t, msg, with(requestContent(t, msg["content"]), "x_unknown", 1, 0)))))
		resp, got := post(t, s, messagesPath, body, betasFor([]byte(body))...)
		wantError(t, resp, got, 400, "invalid_request_error",
			fmt.Sprintf("messages.%d.content.0.x_unknown: Extra inputs are not permitted", assistantAt(msg["content"])))
		if t.Failed() {
			t.Logf("in %s", name)
		}
	}
	// A document citation's file_id is response-only: sent back, it is
	// refused, for every such citation on file.
	n := 0
	for name, msg := range responses {
		var blocks []struct {
			Citations []struct {
				Type string `json:"type"`
			} `json:"citations"`
		}
		_ = json.Unmarshal(msg["content"], &blocks)
		for i, b := range blocks {
			for j, c := range b.Citations {
				if !documentCitations[c.Type] {
					continue
				}
				n++
				body := string(withUploads(t, s, []byte(sendBack(t, msg, with(requestContent(t, msg["content"]), "file_id", "file_011CeDdt", i, j)))))
				resp, got := post(t, s, messagesPath, body, betasFor([]byte(body))...)
				wantError(t, resp, got, 400, "invalid_request_error",
					fmt.Sprintf("messages.%d.content.%d.citations.%d.file_id: Extra inputs are not permitted", assistantAt(msg["content"]), i, j))
				if t.Failed() {
					t.Logf("in %s", name)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no response on file has a document citation")
	}
}

// TestRecordedErrors sends the requests that the service refused (project
// fixtures, and the recorded ones when present) and expects the status,
// error type and message on file. The server serves the models the service
// knew, with the capabilities the recorded refusals imply (no xhigh effort
// on claude-opus-4-6).
func TestRecordedErrors(t *testing.T) {
	yes := CapabilitySupport{Supported: true}
	models := append(DefaultModels(), Model{ID: "claude-sonnet-4-6"}, Model{ID: "claude-opus-4-6",
		Capabilities: &ModelCapabilities{Effort: EffortCapability{Supported: true, Low: yes, Medium: yes, High: yes, Max: yes}}})
	s := newTestServer(t, WithModels(models))
	for _, f := range fixtures.Both(t, "golden/errors/4[0-9][0-9]__*.request.json", "errors/4[0-9][0-9]__*.request.json") {
		status := 0
		_, _ = fmt.Sscanf(filepath.Base(f), "%d__", &status)
		if status == 401 {
			continue // credentials, not the body
		}
		body, err := os.ReadFile(f)
		require.NoError(t, err)
		var want errorBody
		raw, err := os.ReadFile(strings.TrimSuffix(f, ".request.json") + ".json")
		if err != nil || json.Unmarshal(raw, &want) != nil {
			t.Fatalf("%s: no error body (%v)", fixtures.Name(f), err)
		}
		resp, got := post(t, s, messagesPath, string(body), betasFor(body)...)
		wantError(t, resp, got, status, want.Error.Type, "")
		if e := decodeError(t, got); e.Error.Message != want.Error.Message {
			t.Errorf("%s: message\n got: %s\nwant: %s", fixtures.Name(f), e.Error.Message, want.Error.Message)
		}
	}
}
