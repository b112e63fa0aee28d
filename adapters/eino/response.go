package eino

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// Keys of the Extra map of the messages the model returns. The values are
// strings, so they survive Eino's serialization of messages (checkpoints,
// JSON) unchanged.
const (
	// ExtraContent holds the reply's content blocks as JSON (an array, the
	// wire form): thinking with its signature, redacted thinking, text with
	// its citations, tool calls, server tool calls and results. It is sent
	// back when the message is part of a later request. Read it with
	// [Content].
	ExtraContent = "mms_content"
	// ExtraRequestID holds the request-id of the response.
	ExtraRequestID = "mms_request_id"
	// ExtraMessageID holds the message id (msg_…).
	ExtraMessageID = "mms_message_id"
	// ExtraStopSequence holds the custom stop sequence that ended the
	// reply, when one did.
	ExtraStopSequence = "mms_stop_sequence"
)

// Content returns the content blocks stored in m.Extra[ExtraContent] by
// this package, and whether there were any. A value that is not the JSON
// of content blocks is an error.
func Content(m *schema.Message) (mms.ContentBlocks, bool, error) {
	if m == nil || m.Extra == nil {
		return nil, false, nil
	}
	v, ok := m.Extra[ExtraContent]
	if !ok {
		return nil, false, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, false, fmt.Errorf("eino: Extra[%q] is a %T, not the JSON string this package stores", ExtraContent, v)
	}
	var blocks mms.ContentBlocks
	if err := json.Unmarshal([]byte(s), &blocks); err != nil {
		return nil, false, fmt.Errorf("eino: Extra[%q]: %w", ExtraContent, err)
	}
	return blocks, true, nil
}

// RequestID returns the request-id of the response m came from ("" when
// m did not come from this package or the response had none).
func RequestID(m *schema.Message) string {
	if m == nil {
		return ""
	}
	s, _ := m.Extra[ExtraRequestID].(string)
	return s
}

// fromMessage turns a reply into an Eino message.
func fromMessage(reply *mms.Message, requestID string) (*schema.Message, error) {
	out := &schema.Message{Role: schema.Assistant}
	var text, thinking strings.Builder
	for _, b := range reply.Content {
		switch b := b.(type) {
		case mms.TextBlock:
			text.WriteString(b.Text)
		case mms.ThinkingBlock:
			thinking.WriteString(b.Thinking)
		case mms.ToolUseBlock:
			out.ToolCalls = append(out.ToolCalls, schema.ToolCall{
				ID: b.ID, Type: "function",
				Function: schema.FunctionCall{Name: b.Name, Arguments: string(b.Input)},
			})
		}
	}
	out.Content, out.ReasoningContent = text.String(), thinking.String()
	out.ResponseMeta = responseMeta(reply)
	extra, err := replyExtra(reply, requestID)
	if err != nil {
		return nil, err
	}
	out.Extra = extra
	return out, nil
}

// responseMeta is the stop reason and usage of a reply.
func responseMeta(reply *mms.Message) *schema.ResponseMeta {
	u := reply.Usage
	prompt := u.TotalInputTokens()
	usage := &schema.TokenUsage{
		PromptTokens:     prompt,
		CompletionTokens: u.OutputTokens,
		TotalTokens:      prompt + u.OutputTokens,
	}
	if u.CacheReadInputTokens != nil {
		usage.PromptTokenDetails.CachedTokens = *u.CacheReadInputTokens
	}
	if u.OutputTokensDetails != nil {
		usage.CompletionTokensDetails.ReasoningTokens = u.OutputTokensDetails.ThinkingTokens
	}
	return &schema.ResponseMeta{FinishReason: string(reply.StopReason), Usage: usage}
}

// replyExtra is the Extra map of a reply's message.
func replyExtra(reply *mms.Message, requestID string) (map[string]any, error) {
	content, err := json.Marshal(reply.Content)
	if err != nil {
		return nil, fmt.Errorf("eino: encoding the reply's content: %w", err)
	}
	extra := map[string]any{ExtraContent: string(content)}
	if requestID != "" {
		extra[ExtraRequestID] = requestID
	}
	if reply.ID != "" {
		extra[ExtraMessageID] = reply.ID
	}
	if reply.StopSequence != nil {
		extra[ExtraStopSequence] = *reply.StopSequence
	}
	return extra, nil
}

// streamState turns stream events into message chunks.
type streamState struct {
	acc   mms.MessageAccumulator
	md    *option.ResponseMetadata
	calls map[int]*toolStream // tool_use blocks by block index
	done  bool
}

// toolStream is a tool call being streamed.
type toolStream struct {
	ordinal int             // its place among the reply's tool calls
	start   json.RawMessage // the input content_block_start carried
	pieces  bool            // whether input fragments were sent
}

func newStreamState(md *option.ResponseMetadata) *streamState {
	return &streamState{md: md, calls: map[int]*toolStream{}}
}

// add folds ev into the reply and returns the chunk it makes, or nil.
func (s *streamState) add(ev mms.MessageStreamEvent) (*schema.Message, error) {
	if err := s.acc.Add(ev); err != nil {
		return nil, fmt.Errorf("eino: Stream: %w", err)
	}
	chunk := &schema.Message{Role: schema.Assistant}
	switch ev := ev.(type) {
	case mms.ContentBlockStartEvent:
		switch b := ev.ContentBlock.(type) {
		case mms.TextBlock:
			chunk.Content = b.Text
		case mms.ThinkingBlock:
			chunk.ReasoningContent = b.Thinking
		case mms.ToolUseBlock:
			ts := &toolStream{ordinal: len(s.calls), start: b.Input}
			s.calls[ev.Index] = ts
			chunk.ToolCalls = []schema.ToolCall{{
				Index: &ts.ordinal, ID: b.ID, Type: "function",
				Function: schema.FunctionCall{Name: b.Name},
			}}
		}
	case mms.ContentBlockDeltaEvent:
		switch d := ev.Delta.(type) {
		case mms.TextDelta:
			chunk.Content = d.Text
		case mms.ThinkingDelta:
			chunk.ReasoningContent = d.Thinking
		case mms.InputJSONDelta:
			if ts, ok := s.calls[ev.Index]; ok && d.PartialJSON != "" {
				ts.pieces = true
				chunk.ToolCalls = []schema.ToolCall{{Index: &ts.ordinal, Function: schema.FunctionCall{Arguments: d.PartialJSON}}}
			}
		}
	case mms.ContentBlockStopEvent:
		// A call whose input came whole in its start has no fragments.
		if ts, ok := s.calls[ev.Index]; ok && !ts.pieces {
			args := string(ts.start)
			if args == "" || args == "null" {
				args = "{}"
			}
			chunk.ToolCalls = []schema.ToolCall{{Index: &ts.ordinal, Function: schema.FunctionCall{Arguments: args}}}
		}
	case mms.MessageStopEvent:
		s.done = true
		reply := s.acc.Message()
		extra, err := replyExtra(reply, s.md.RequestID)
		if err != nil {
			return nil, err
		}
		chunk.ResponseMeta, chunk.Extra = responseMeta(reply), extra
		return chunk, nil
	}
	if chunk.Content == "" && chunk.ReasoningContent == "" && len(chunk.ToolCalls) == 0 {
		return nil, nil
	}
	return chunk, nil
}
