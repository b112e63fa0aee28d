package otel

import (
	"encoding/json"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/observe"
	"go.opentelemetry.io/otel/attribute"
)

// Content is recorded in the latest conventions' shape in either mode:
// gen_ai.system_instructions, gen_ai.input.messages and
// gen_ai.output.messages hold JSON arrays of messages made of typed parts.
// (v1.36.0 recorded content as log events, which a tracer cannot emit.)

// message is one message of the conventions' content schema.
type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// part is one part of a message: text, reasoning, tool_call,
// tool_call_response, or a part of another type carried by its type alone
// (images and documents are not copied into spans).
type part struct {
	Type      string          `json:"type"`
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Response  string          `json:"response,omitempty"`
}

// appendInputContent adds what op sends: a chat's system instructions and
// messages, a tool call's arguments.
func appendInputContent(attrs []attribute.KeyValue, op observe.Op) []attribute.KeyValue {
	if op.Kind == observe.ExecuteTool {
		if s, ok := contentString(op.Request); ok {
			attrs = append(attrs, attribute.String(keyToolArguments, s))
		}
		return attrs
	}
	var system mms.SystemPrompt
	var msgs []mms.MessageParam
	switch r := op.Request.(type) {
	case *mms.MessageCreateParams:
		system, msgs = r.System, r.Messages
	case *mms.MessageCountTokensParams:
		system, msgs = r.System, r.Messages
	default:
		return attrs
	}
	if sys := systemParts(system); len(sys) > 0 {
		attrs = append(attrs, attribute.String(keySystemInstructions, marshal(sys)))
	}
	in := make([]message, 0, len(msgs))
	for _, m := range msgs {
		in = append(in, message{Role: string(m.Role), Parts: parts(m.Content)})
	}
	return append(attrs, attribute.String(keyInputMessages, marshal(in)))
}

func appendOutputContent(attrs []attribute.KeyValue, resp any) []attribute.KeyValue {
	m, ok := resp.(*mms.Message)
	if !ok || m == nil {
		return attrs
	}
	out := []message{{Role: string(m.Role), Parts: parts(m.Content), FinishReason: string(m.StopReason)}}
	return append(attrs, attribute.String(keyOutputMessages, marshal(out)))
}

func systemParts(s mms.SystemPrompt) []part {
	if s.Blocks == nil {
		if s.Text == "" {
			return nil
		}
		return []part{{Type: "text", Content: s.Text}}
	}
	ps := make([]part, 0, len(s.Blocks))
	for _, b := range s.Blocks {
		ps = append(ps, part{Type: "text", Content: b.Text})
	}
	return ps
}

func parts(blocks mms.ContentBlocks) []part {
	ps := make([]part, 0, len(blocks))
	for _, b := range blocks {
		switch b := b.(type) {
		case mms.TextBlock:
			ps = append(ps, part{Type: "text", Content: b.Text})
		case mms.ThinkingBlock:
			ps = append(ps, part{Type: "reasoning", Content: b.Thinking})
		case mms.ToolUseBlock:
			ps = append(ps, part{Type: "tool_call", ID: b.ID, Name: b.Name, Arguments: b.Input})
		case mms.ToolResultBlock:
			ps = append(ps, part{Type: "tool_call_response", ID: b.ToolUseID, Response: text(b.Content)})
		default:
			ps = append(ps, part{Type: wireType(b)})
		}
	}
	return ps
}

// text joins the text blocks of blocks.
func text(blocks mms.ContentBlocks) string {
	var sb strings.Builder
	for _, b := range blocks {
		if t, ok := b.(mms.TextBlock); ok {
			sb.WriteString(t.Text)
		}
	}
	return sb.String()
}

// wireType is a block's "type" member.
func wireType(b mms.ContentBlock) string {
	if u, ok := b.(mms.UnknownContentBlock); ok {
		return u.Type
	}
	raw, err := b.MarshalJSON()
	if err != nil {
		return "unknown"
	}
	var t struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(raw, &t) != nil || t.Type == "" {
		return "unknown"
	}
	return t.Type
}

// contentString renders a tool's input or result for a span attribute.
func contentString(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", false
	case string:
		return v, true
	case json.RawMessage:
		return string(v), true
	case []byte:
		return string(v), true
	case mms.ContentBlocks:
		return text(v), true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// marshal encodes what this file builds, which always encodes.
func marshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
