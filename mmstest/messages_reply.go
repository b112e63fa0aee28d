package mmstest

import (
	"cmp"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// The deterministic reply described in the package documentation, and the
// Message object that carries it.

// replyBlock is one content block of a reply.
type replyBlock struct {
	typ       string            // "text", "thinking", "tool_use", "server_tool_use" or a server tool result
	text      string            // the text, or the thinking
	signature string            // thinking
	id, name  string            // tool_use, server_tool_use
	toolset   string            // tool_use of a toolset member: its toolset_name
	input     json.RawMessage   // tool_use, server_tool_use: a compact JSON object
	citations []json.RawMessage // text: citations (messages_cite.go)
	raw       any               // a server tool result, complete from its start (script.go)
	compact   *compactionMeta   // a compaction block (messages_compaction.go)
}

// tokens is the block's output token count.
func (b replyBlock) tokens() int {
	switch {
	case b.raw != nil, b.compact != nil: // the server tool's output; a compaction's is in its iteration
		return 0
	case b.input != nil:
		return tokenCount(len(b.name) + len(b.input))
	}
	return tokenCount(len(b.text))
}

type textWire struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingWire struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type toolUseWire struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Input  json.RawMessage `json:"input"`
	Caller struct {
		Type string `json:"type"`
	} `json:"caller"`
	ToolsetName string `json:"toolset_name,omitempty"`
}

// wire returns the block's JSON form; initial selects the form that opens
// it in a stream (empty text, thinking and signature; input {}).
func (b replyBlock) wire(initial bool) any {
	switch b.typ {
	case "compaction":
		return b.compactionWire(initial)
	case "thinking":
		if initial {
			return thinkingWire{Type: b.typ}
		}
		return thinkingWire{b.typ, b.text, b.signature}
	case "tool_use", "server_tool_use":
		w := toolUseWire{Type: b.typ, ID: b.id, Name: b.name, Input: b.input}
		if initial {
			w.Input = json.RawMessage("{}")
		}
		w.Caller.Type = "direct"
		w.ToolsetName = b.toolset
		return w
	}
	if b.raw != nil {
		return b.raw
	}
	if initial {
		return textWire{Type: b.typ} // citations arrive as citations_delta
	}
	if b.citations != nil {
		return citedTextWire{b.typ, b.text, b.citations}
	}
	return textWire{b.typ, b.text}
}

type citedTextWire struct {
	Type      string            `json:"type"`
	Text      string            `json:"text"`
	Citations []json.RawMessage `json:"citations"`
}

// reply is the fake's answer to a request.
type reply struct {
	id           string
	blocks       []replyBlock
	stopReason   string
	stopSequence *string
	inputTokens  int
	cache        cacheUsage     // messages_cache.go
	container    *containerWire // messages_container.go
	serviceTier  string         // "" is "standard"; priority.go sets it
	iterations   []any          // usage.iterations, when not nil
}

func (r reply) outputTokens() (total, thinking int) {
	for _, b := range r.blocks {
		total += b.tokens()
		if b.typ == "thinking" {
			thinking += b.tokens()
		}
	}
	return total, thinking
}

// buildReply computes the reply to a request that passed every rule: the
// scripted turn script (the n-th of the script) when it is not nil, else the
// deterministic reply.
func (s *Server) buildReply(p *msgParams, script *Turn, n int) (reply, *apiError) {
	turns := p.turns()
	prefill := turns[len(turns)-1].role == "assistant"
	var prompt, echo []string
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].role != "user" {
			continue
		}
		for _, b := range turns[i].blocks {
			switch b.b.Type {
			case "text":
				prompt = append(prompt, b.b.Text)
			case "tool_result":
				echo = append(echo, resultText(b.b.Content))
			}
		}
		break
	}
	said := strings.Join(append(prompt, echo...), "\n")
	asked := strings.Join(prompt, "\n")

	rep := reply{id: s.newID("msg_"), inputTokens: inputTokens(p.members)}
	rep.cache = s.cache.usage(p, s.now(), rep.inputTokens)
	rep.blocks = s.pauseResult(turns)
	if p.thinkingOn() && !prefill {
		thought := "The user said: " + clip(said, 200)
		if p.Thinking.Display != nil && *p.Thinking.Display == "omitted" {
			thought = ""
		}
		rep.blocks = append(rep.blocks, replyBlock{typ: "thinking", text: thought, signature: signThinking(0, thought)})
	}
	text := "You said: " + said
	if schema, _ := p.outputSchema(); schema != nil {
		text = string(s.example(schema, asked))
	}
	if script != nil {
		listings, err := p.mcpListingBlocks(script.MCPToolListings, n) // messages_mcp.go
		if err != nil {
			return reply{}, err
		}
		blocks, stop, err := s.scriptedBlocks(p, *script, n, text, asked)
		if err != nil {
			return reply{}, err
		}
		rep.blocks, rep.stopReason = append(append(rep.blocks, listings...), blocks...), stop
	} else {
		rep.blocks = append(rep.blocks, replyBlock{typ: "text", text: text})
		rep.blocks = append(rep.blocks, s.citedBlocks(turns)...)
		calls := p.toolCalls(asked)
		for _, t := range calls {
			rep.blocks = append(rep.blocks, replyBlock{typ: "tool_use", id: s.newID("toolu_"), name: t.Name, input: s.example(t.InputSchema, asked)})
		}
		rep.stopReason = "end_turn"
		if len(calls) > 0 {
			rep.stopReason = "tool_use"
		}
	}
	rep.applyStopSequences(p.StopSequences)
	rep.applyMaxTokens(p.MaxTokens)
	if script != nil && script.StopReason != "" {
		rep.stopReason = script.StopReason
	}
	return rep, nil
}

// resultText is the text of a tool_result's content.
func resultText(content json.RawMessage) string {
	if content == nil {
		return ""
	}
	blocks, _ := contentBlocks(content)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// clip shortens s to at most n bytes on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// toolCalls picks the custom tools the reply calls.
func (p *msgParams) toolCalls(prompt string) []toolParam {
	choice := toolChoiceParam{Type: "auto"}
	if p.ToolChoice != nil {
		choice = *p.ToolChoice
	}
	var named, custom []toolParam
	for _, t := range p.Tools {
		if !t.custom() {
			continue
		}
		custom = append(custom, t)
		if (choice.Type == "tool" && t.Name == choice.Name) || (choice.Type != "tool" && strings.Contains(prompt, t.Name)) {
			named = append(named, t)
		}
	}
	switch {
	case choice.Type == "none":
		return nil
	case choice.Type == "any" && len(named) == 0 && len(custom) > 0:
		named = custom[:1]
	}
	if choice.DisableParallelToolUse && len(named) > 1 {
		named = named[:1]
	}
	return named
}

// applyStopSequences cuts the first text block at the earliest stop
// sequence and drops the blocks after it.
func (r *reply) applyStopSequences(seqs []string) {
	for i, b := range r.blocks {
		if b.typ != "text" {
			continue
		}
		at, hit := -1, ""
		for _, seq := range seqs {
			if j := strings.Index(b.text, seq); seq != "" && j >= 0 && (at < 0 || j < at) {
				at, hit = j, seq
			}
		}
		if at < 0 {
			return
		}
		r.blocks[i].text = b.text[:at]
		r.blocks = r.blocks[:i+1]
		if at == 0 {
			r.blocks = r.blocks[:i]
		}
		r.stopReason, r.stopSequence = "stop_sequence", &hit
		return
	}
}

// applyMaxTokens cuts the reply to maxTokens output tokens.
func (r *reply) applyMaxTokens(maxTokens int) {
	left := maxTokens
	for i, b := range r.blocks {
		n := b.tokens()
		if n <= left {
			left -= n
			continue
		}
		r.blocks = r.blocks[:i]
		if (b.typ == "text" || b.typ == "thinking") && left > 0 {
			b.text = clip(b.text, left*bytesPerToken)
			if b.typ == "thinking" {
				b.signature = signThinking(i, b.text)
			}
			r.blocks = append(r.blocks, b)
		}
		r.stopReason, r.stopSequence = "max_tokens", nil
		return
	}
}

// messageWire is the Message object, in the member order the service
// sends.
type messageWire struct {
	Model             string            `json:"model"`
	ID                string            `json:"id"`
	Type              string            `json:"type"`
	Role              string            `json:"role"`
	Content           []any             `json:"content"`
	Container         *containerWire    `json:"container"` // null when none: always sent
	StopReason        *string           `json:"stop_reason"`
	StopSequence      *string           `json:"stop_sequence"`
	StopDetails       *struct{}         `json:"stop_details"`
	ContextManagement *appliedEditsWire `json:"context_management,omitempty"`
	Usage             usageWire         `json:"usage"`
}

// appliedEditsWire is the response context_management of a request that
// sent one; the fake applies no edits.
type appliedEditsWire struct {
	AppliedEdits []any `json:"applied_edits"`
}

type usageWire struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	CacheCreation            struct {
		Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
		Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	OutputTokens        int                `json:"output_tokens"`
	OutputTokensDetails *outputDetailsWire `json:"output_tokens_details,omitempty"`
	ServiceTier         string             `json:"service_tier"`
	InferenceGeo        string             `json:"inference_geo"`
	Iterations          []any              `json:"iterations,omitempty"`
}

// outputDetailsWire is sent when the reply thinks.
type outputDetailsWire struct {
	ThinkingTokens int `json:"thinking_tokens"`
}

// message returns the complete Message object of the reply.
func (r reply) message(p *msgParams) messageWire {
	m := messageWire{Model: p.model.ID, ID: r.id, Type: "message", Role: "assistant", Content: []any{},
		StopReason: &r.stopReason, StopSequence: r.stopSequence, Container: r.container}
	for _, b := range r.blocks {
		m.Content = append(m.Content, b.wire(false))
	}
	if present(p.ContextManagement) {
		m.ContextManagement = &appliedEditsWire{AppliedEdits: []any{}}
	}
	total, thinking := r.outputTokens()
	m.Usage = usageWire{InputTokens: r.inputTokens, OutputTokens: total, ServiceTier: cmp.Or(r.serviceTier, "standard"), InferenceGeo: "global",
		Iterations: r.iterations}
	r.cache.apply(&m.Usage)
	if p.InferenceGeo != nil {
		m.Usage.InferenceGeo = *p.InferenceGeo
	}
	if p.thinkingOn() {
		m.Usage.OutputTokensDetails = &outputDetailsWire{thinking}
	}
	return m
}
