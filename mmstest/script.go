package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Scripted replies: a test queues the turns the "model" takes, so that code
// driving a tool loop meets the tool calls, pauses and final answers it must
// handle, in the order the test chose.

// Turn is one scripted reply of POST /v1/messages. The zero Turn is a
// final answer with the default text.
type Turn struct {
	// ToolCalls are the client tool calls of the reply, in order; several
	// are parallel calls. Each names a custom tool of the request, or a
	// built-in tool the client runs (memory, bash, text editor, computer).
	ToolCalls []ToolCall
	// Text is the reply's text; "" keeps the default text (the structured
	// JSON when the request asks for a format, else "You said: …").
	Text string
	// PauseTurn makes the reply a server_tool_use of the request's first
	// server tool (web_search, web_fetch or code_execution) with
	// stop_reason "pause_turn", after the Text when one is given. The
	// request that sends the paused turn back gets the tool's result first.
	PauseTurn bool
	// StopReason replaces the derived stop_reason (after stop sequences
	// and max_tokens); "" keeps it.
	StopReason string
	// MCPToolListings are the tool lists the service fetches from MCP
	// servers for this reply: each becomes an mcp_tool_listing block
	// (after any thinking, before the other blocks) unless the request's
	// mcp_toolset pins that server's tools or the conversation already
	// holds a listing of it. A listing of a server no mcp_toolset of the
	// request uses is a 500 naming the turn.
	MCPToolListings []MCPToolListing
}

// ToolCall is one client tool call of a scripted Turn.
type ToolCall struct {
	// Name is the tool called.
	Name string
	// Input is the call's input, a JSON object; "" generates one from a
	// custom tool's input_schema as for the deterministic reply (a
	// built-in tool's call must give it; a toolset call's is {}).
	Input string
	// Toolset, "computer" or "browser", makes the call one of that
	// toolset: a tool_use with toolset_name, Name being the action. The
	// request must declare the toolset and not disable the action in its
	// configs. The fake does not check Input against the action.
	Toolset string
}

// WithScript queues turns that the Messages create and stream requests take
// in order (see Server.Script).
func WithScript(turns ...Turn) Option {
	return func(c *config) { c.script = append(c.script, turns...) }
}

// Script appends turns to the server's script. Each POST /v1/messages that
// passes the rules, streaming or not, takes the next turn; count_tokens and
// batch requests take none, and once the script is used up the deterministic
// reply comes back. A turn that cannot be answered (a call of a tool the
// request does not define, a PauseTurn without a server tool) is a 500
// api_error naming the turn: the test, not the client, is wrong.
func (s *Server) Script(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, turns...)
}

// takeTurn pops the next scripted turn for a request that came through the
// HTTP server, and returns it with its position in the script (1-based), or
// nil. Batch items run the handler in process, without the server's context
// key, so they never consume the script.
func (s *Server) takeTurn(r *http.Request) (*Turn, int) {
	if r.Context().Value(http.ServerContextKey) == nil {
		return nil, 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.script) == 0 {
		return nil, 0
	}
	t := s.script[0]
	s.script = s.script[1:]
	s.scriptTaken++
	return &t, s.scriptTaken
}

// scriptedBlocks returns the blocks of a scripted turn (n is its position)
// after the thinking, and the stop_reason they imply. text is the default
// reply text.
func (s *Server) scriptedBlocks(p *msgParams, t Turn, n int, text, prompt string) ([]replyBlock, string, *apiError) {
	wrong := func(format string, args ...any) *apiError {
		return &apiError{status: http.StatusInternalServerError, errType: wire.ErrAPI,
			msg: fmt.Sprintf("mmstest: scripted turn %d: ", n) + fmt.Sprintf(format, args...)}
	}
	if t.Text != "" {
		text = t.Text
	}
	if t.PauseTurn {
		tool := p.serverTool()
		switch {
		case len(t.ToolCalls) > 0:
			return nil, "", wrong("PauseTurn cannot be combined with ToolCalls")
		case tool == "":
			return nil, "", wrong("PauseTurn needs a server tool (web_search, web_fetch or code_execution) in the request's tools")
		}
		var blocks []replyBlock
		if t.Text != "" {
			blocks = append(blocks, replyBlock{typ: "text", text: text})
		}
		use := replyBlock{typ: "server_tool_use", id: s.newID("srvtoolu_"), name: tool, input: serverToolInput(tool, prompt)}
		return append(blocks, use), "pause_turn", nil
	}
	blocks := []replyBlock{{typ: "text", text: text}}
	var defined []string
	for _, tl := range p.Tools {
		if tl.clientRun() {
			defined = append(defined, tl.Name)
		}
	}
	for i, c := range t.ToolCalls {
		if c.Toolset != "" {
			b, why := s.toolsetCall(p, c)
			if why != "" {
				return nil, "", wrong("tool call %d (%s %s): %s", i, c.Toolset, c.Name, why)
			}
			blocks = append(blocks, b)
			continue
		}
		at := slices.IndexFunc(p.Tools, func(tl toolParam) bool { return tl.clientRun() && tl.Name == c.Name })
		if at < 0 {
			return nil, "", wrong("tool call %d: the request defines no client tool %q (its client tools: %s)",
				i, c.Name, strings.Join(defined, ", "))
		}
		var input bytes.Buffer
		if c.Input == "" && !p.Tools[at].custom() {
			return nil, "", wrong("tool call %d (%s): a built-in tool's call needs its Input", i, c.Name)
		}
		if c.Input == "" {
			input.Write(s.example(p.Tools[at].InputSchema, prompt))
		} else if json.Compact(&input, []byte(c.Input)) != nil || jsonKind([]byte(c.Input)) != '{' {
			return nil, "", wrong("tool call %d (%s): Input is not a JSON object", i, c.Name)
		}
		blocks = append(blocks, replyBlock{typ: "tool_use", id: s.newID("toolu_"), name: c.Name, input: input.Bytes()})
	}
	if len(t.ToolCalls) > 0 {
		return blocks, "tool_use", nil
	}
	return blocks, "end_turn", nil
}

// serverTool returns the name of the request's first server tool that can
// pause a turn, or "".
func (p *msgParams) serverTool() string {
	for _, t := range p.Tools {
		if t.Type == nil {
			continue
		}
		for _, name := range []string{"web_search", "web_fetch", "code_execution"} {
			if strings.HasPrefix(*t.Type, name+"_") {
				return name
			}
		}
	}
	return ""
}

// serverToolInput is the input of a paused server tool call.
func serverToolInput(tool, prompt string) json.RawMessage {
	switch tool {
	case "web_fetch":
		return encodeJSON(map[string]string{"url": "https://example.com/"})
	case "code_execution":
		return encodeJSON(map[string]string{"code": "print(" + string(encodeJSON(prompt)) + ")"})
	}
	return encodeJSON(map[string]string{"query": prompt})
}

// pauseResult answers a paused turn: when the conversation ends with an
// assistant turn whose last block is a server_tool_use without its result,
// the reply starts with that tool's result, as the service resumes the turn.
func (s *Server) pauseResult(turns []turn) []replyBlock {
	last := turns[len(turns)-1]
	if last.role != "assistant" || len(last.blocks) == 0 {
		return nil
	}
	use := last.blocks[len(last.blocks)-1].b
	if use.Type != "server_tool_use" {
		return nil
	}
	var in struct {
		Query string `json:"query"`
		URL   string `json:"url"`
		Code  string `json:"code"`
	}
	_ = json.Unmarshal(use.Input, &in) // an object, as the request form checked
	type caller struct {
		Type string `json:"type"`
	}
	type result struct {
		Type      string  `json:"type"`
		ToolUseID string  `json:"tool_use_id"`
		Content   any     `json:"content"`
		Caller    *caller `json:"caller,omitempty"`
	}
	r := result{Type: use.Name + "_tool_result", ToolUseID: use.ID, Caller: &caller{"direct"}}
	switch use.Name {
	case "web_search":
		r.Content = []any{map[string]any{"type": "web_search_result", "title": "Result for " + in.Query,
			"url": "https://example.com/search?q=" + url.QueryEscape(in.Query), "encrypted_content": "mmstest-result-1",
			"page_age": nil}}
	case "web_fetch":
		r.Content = map[string]any{"type": "web_fetch_result", "url": in.URL,
			"retrieved_at": s.now().UTC().Format("2006-01-02T15:04:05Z07:00"),
			"content": map[string]any{"type": "document", "title": nil, "citations": nil,
				"source": map[string]string{"type": "text", "media_type": "text/plain", "data": "The page at " + in.URL + "."}}}
	case "code_execution":
		r.Caller = nil // the request form of code_execution_tool_result has none
		r.Content = map[string]any{"type": "code_execution_result", "stdout": in.Code + "\n", "stderr": "",
			"return_code": 0, "content": []any{}}
	default:
		return nil
	}
	return []replyBlock{{typ: r.Type, raw: r}}
}
