package langchaingo

import (
	mms "github.com/mms-sdk/mms-go"
	"github.com/tmc/langchaingo/llms"
)

// Keys of ContentChoice.GenerationInfo. The usage and thinking keys are the
// ones langchaingo's own anthropic provider sets (ints and strings); the
// others are this adapter's.
const (
	// InfoInputTokens (int) is usage.input_tokens: the input not read
	// from or written to the prompt cache.
	InfoInputTokens = "InputTokens"
	// InfoOutputTokens (int) is usage.output_tokens.
	InfoOutputTokens = "OutputTokens"
	// InfoCacheCreationInputTokens (int) is the input written to the cache.
	InfoCacheCreationInputTokens = "CacheCreationInputTokens"
	// InfoCacheReadInputTokens (int) is the input read from the cache.
	InfoCacheReadInputTokens = "CacheReadInputTokens"
	// InfoThinkingContent (string) is the text of the thinking blocks,
	// as ContentChoice.ReasoningContent.
	InfoThinkingContent = "ThinkingContent"
	// InfoThinkingTokens (int) is usage.output_tokens_details.thinking_tokens,
	// present when the service reports it (llms.ExtractThinkingTokens reads it).
	InfoThinkingTokens = "ThinkingTokens"
	// InfoUsage (mms.Usage) is the reply's whole usage record.
	InfoUsage = "Usage"
	// InfoBlocks (mms.ContentBlocks) is the reply's content as the service
	// sent it: thinking with signatures, redacted thinking, text with
	// citations, tool calls, server tool blocks. AssistantMessage turns
	// it into the next request's assistant message.
	InfoBlocks = "Blocks"
	// InfoCitations (mms.Citations) are the citations of the text blocks,
	// in order; absent when there are none.
	InfoCitations = "Citations"
	// InfoRequestID (string) is the request-id of the response.
	InfoRequestID = "RequestID"
	// InfoMessageID (string) is the message's id (msg_…).
	InfoMessageID = "MessageID"
	// InfoModel (string) is the model that answered.
	InfoModel = "Model"
	// InfoStopSequence (string) is the stop sequence that ended the reply,
	// present when one did (StopReason "stop_sequence").
	InfoStopSequence = "StopSequence"
)

// BlockPart is an llms.ContentPart carrying one mms content block as it
// is: the place for what langchaingo's own parts cannot hold (thinking
// and redacted thinking with their data and signatures, text with
// citations, server tool calls and results, documents with titles or
// citations on). AssistantMessage produces them; put them in a message
// of any role and the block is sent unchanged.
//
// llms.MessageContent's JSON decoding does not know BlockPart: a history
// saved as JSON through langchaingo's own encoding does not decode back
// with its BlockParts.
type BlockPart struct {
	contentPart
	// Block is the block sent.
	Block mms.ContentBlock
}

// contentPart gives BlockPart the llms.ContentPart marker method, which
// langchaingo leaves unexported; the marker is never called.
type contentPart interface{ llms.ContentPart }

// response maps a reply to one choice holding all of it.
func response(msg *mms.Message, requestID string) *llms.ContentResponse {
	c := &llms.ContentChoice{
		Content:          msg.Text(),
		StopReason:       string(msg.StopReason),
		ReasoningContent: msg.Thinking(),
	}
	for _, u := range msg.ToolUses() {
		c.ToolCalls = append(c.ToolCalls, llms.ToolCall{
			ID:           u.ID,
			Type:         "function",
			FunctionCall: &llms.FunctionCall{Name: u.Name, Arguments: string(u.Input)},
		})
	}
	if len(c.ToolCalls) > 0 {
		c.FuncCall = c.ToolCalls[0].FunctionCall
	}
	u := msg.Usage
	info := map[string]any{
		InfoInputTokens:              u.InputTokens,
		InfoOutputTokens:             u.OutputTokens,
		InfoCacheCreationInputTokens: deref(u.CacheCreationInputTokens),
		InfoCacheReadInputTokens:     deref(u.CacheReadInputTokens),
		InfoThinkingContent:          c.ReasoningContent,
		InfoUsage:                    u,
		InfoBlocks:                   msg.Content,
		InfoRequestID:                requestID,
		InfoMessageID:                msg.ID,
		InfoModel:                    msg.Model,
	}
	if d := u.OutputTokensDetails; d != nil {
		info[InfoThinkingTokens] = d.ThinkingTokens
	}
	if msg.StopSequence != nil {
		info[InfoStopSequence] = *msg.StopSequence
	}
	var cites mms.Citations
	for _, b := range msg.Content {
		if t, ok := b.(mms.TextBlock); ok {
			cites = append(cites, t.Citations...)
		}
	}
	if len(cites) > 0 {
		info[InfoCitations] = cites
	}
	c.GenerationInfo = info
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{c}}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// AssistantMessage returns choice as the assistant message of the next
// request, without loss: from a choice of this adapter, every block of the
// reply in its order, plain text as llms.TextContent, plain tool calls as
// llms.ToolCall, and everything else (thinking with its signature, redacted
// thinking, cited text, server tools) as BlockPart. A choice of another
// provider gives its Content and ToolCalls.
func AssistantMessage(choice *llms.ContentChoice) llms.MessageContent {
	m := llms.MessageContent{Role: llms.ChatMessageTypeAI}
	blocks, ok := choice.GenerationInfo[InfoBlocks].(mms.ContentBlocks)
	if !ok {
		if choice.Content != "" {
			m.Parts = append(m.Parts, llms.TextContent{Text: choice.Content})
		}
		for _, tc := range choice.ToolCalls {
			m.Parts = append(m.Parts, tc)
		}
		return m
	}
	for _, b := range blocks {
		m.Parts = append(m.Parts, part(b))
	}
	return m
}

// part returns b as langchaingo's own part when that part holds all of it.
func part(b mms.ContentBlock) llms.ContentPart {
	switch b := b.(type) {
	case mms.TextBlock:
		if len(b.Citations) == 0 && b.CacheControl == nil && len(b.Extra) == 0 {
			return llms.TextContent{Text: b.Text}
		}
	case mms.ToolUseBlock:
		direct := b.Caller == nil
		if c, ok := b.Caller.(mms.DirectCaller); ok && len(c.Extra) == 0 {
			direct = true // the default caller, sent or not
		}
		if direct && b.ToolsetName == "" && b.CacheControl == nil && len(b.Extra) == 0 {
			return llms.ToolCall{ID: b.ID, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: b.Name, Arguments: string(b.Input)}}
		}
	}
	return BlockPart{Block: b}
}
