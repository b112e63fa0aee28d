package mmsgenkit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/firebase/genkit/go/ai"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// Keys of ModelResponse.Custom, a map[string]any.
const (
	// CustomRequestID is the request-id of the response.
	CustomRequestID = "requestId"
	// CustomMessageID is the message id (msg_…).
	CustomMessageID = "messageId"
	// CustomStopReason is the service's stop_reason as it came.
	CustomStopReason = "stopReason"
	// CustomStopSequence is the custom stop sequence that ended the reply,
	// when one did.
	CustomStopSequence = "stopSequence"
	// CustomUsage is the reply's full mms.Usage.
	CustomUsage = "usage"
)

// RequestID returns the request-id of the response resp came from ("" when
// it did not come from this plugin).
func RequestID(resp *ai.ModelResponse) string {
	if resp == nil {
		return ""
	}
	m, _ := resp.Custom.(map[string]any)
	s, _ := m[CustomRequestID].(string)
	return s
}

// generate is one model call: a Messages request, streamed when cb is set.
func (p *Plugin) generate(ctx context.Context, model string, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	if p.Client == nil {
		return nil, fmt.Errorf("mmsgenkit: model %q: Plugin.Client is nil", model)
	}
	if req == nil {
		return nil, fmt.Errorf("mmsgenkit: model %q: nil request", model)
	}
	cfg, err := configOf(req.Config)
	if err != nil {
		return nil, err
	}
	params, err := p.params(model, cfg)
	if err != nil {
		return nil, err
	}
	defs, err := toolDefs(req.Tools)
	if err != nil {
		return nil, err
	}
	params.Tools = append(params.Tools, defs...)
	choice, err := toolChoice(req.ToolChoice)
	if err != nil {
		return nil, err
	}
	if choice != nil {
		params.ToolChoice = choice
	}
	if err := toParams(&params, req, cfg.Citations); err != nil {
		return nil, err
	}
	md := new(option.ResponseMetadata)
	opts := append(slices.Clip(p.RequestOptions), cfg.RequestOptions...)
	opts = append(opts, option.WithResponseMetadata(md))

	if cb == nil {
		reply, err := p.Client.Messages.Create(ctx, params, opts...)
		if err != nil {
			return nil, fmt.Errorf("mmsgenkit: %w", err)
		}
		return response(reply, md.RequestID, req)
	}

	s := streamState{}
	for ev, err := range p.Client.Messages.Stream(ctx, params, opts...) {
		if err != nil {
			return nil, fmt.Errorf("mmsgenkit: %w", err)
		}
		// Events already received may still be yielded after ctx ends.
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("mmsgenkit: %w", err)
		}
		chunk, err := s.add(ev)
		if err != nil {
			return nil, err
		}
		if chunk != nil {
			// Returning ends the range loop, which ends the request.
			if err := cb(ctx, chunk); err != nil {
				return nil, err
			}
		}
	}
	if !s.done {
		return nil, fmt.Errorf("mmsgenkit: %w", mms.ErrStreamTruncated)
	}
	return response(s.acc.Message(), md.RequestID, req)
}

// response is a reply as Genkit's response.
func response(reply *mms.Message, requestID string, req *ai.ModelRequest) (*ai.ModelResponse, error) {
	msg := &ai.Message{Role: ai.RoleModel, Content: make([]*ai.Part, 0, len(reply.Content))}
	for i, b := range reply.Content {
		part, err := partOf(b)
		if err != nil {
			return nil, fmt.Errorf("mmsgenkit: the reply's content[%d]: %w", i, err)
		}
		msg.Content = append(msg.Content, part)
	}
	custom := map[string]any{
		CustomMessageID:  reply.ID,
		CustomStopReason: string(reply.StopReason),
		CustomUsage:      reply.Usage,
	}
	if requestID != "" {
		custom[CustomRequestID] = requestID
	}
	if reply.StopSequence != nil {
		custom[CustomStopSequence] = *reply.StopSequence
	}
	return &ai.ModelResponse{
		Message:       msg,
		FinishReason:  finishReason(reply.StopReason),
		FinishMessage: string(reply.StopReason),
		Usage:         usage(reply.Usage),
		Custom:        custom,
		Raw:           reply,
		Request:       req,
	}, nil
}

// finishReason maps the service's stop reason.
func finishReason(r mms.StopReason) ai.FinishReason {
	switch r {
	case mms.StopReasonEndTurn, mms.StopReasonToolUse, mms.StopReasonStopSequence:
		return ai.FinishReasonStop
	case mms.StopReasonMaxTokens, mms.StopReasonModelContextWindowExceeded:
		return ai.FinishReasonLength
	case mms.StopReasonRefusal:
		return ai.FinishReasonBlocked
	case mms.StopReasonPauseTurn, mms.StopReasonCompaction:
		return ai.FinishReasonOther
	}
	return ai.FinishReasonUnknown
}

// usage is the reply's token accounting in Genkit's terms.
func usage(u mms.Usage) *ai.GenerationUsage {
	in := u.TotalInputTokens()
	out := &ai.GenerationUsage{
		InputTokens:  in,
		OutputTokens: u.OutputTokens,
		TotalTokens:  in + u.OutputTokens,
	}
	if u.CacheReadInputTokens != nil {
		out.CachedContentTokens = *u.CacheReadInputTokens
	}
	if u.OutputTokensDetails != nil {
		out.ThoughtsTokens = u.OutputTokensDetails.ThinkingTokens
	}
	if u.CacheCreationInputTokens != nil || u.CacheReadInputTokens != nil {
		out.Custom = map[string]float64{}
		if u.CacheCreationInputTokens != nil {
			out.Custom["cacheCreationInputTokens"] = float64(*u.CacheCreationInputTokens)
		}
		if u.CacheReadInputTokens != nil {
			out.Custom["cacheReadInputTokens"] = float64(*u.CacheReadInputTokens)
		}
	}
	return out
}

// partOf is a reply's block as a part. A block with more than the part
// shows is kept in the part's Metadata[MetadataBlock].
func partOf(b mms.ContentBlock) (*ai.Part, error) {
	var part *ai.Part
	switch b := b.(type) {
	case mms.TextBlock:
		part = ai.NewTextPart(b.Text)
	case mms.ThinkingBlock:
		part = ai.NewReasoningPart(b.Thinking, []byte(b.Signature))
	case mms.ToolUseBlock:
		var input map[string]any
		if len(b.Input) > 0 && string(b.Input) != "null" {
			if err := json.Unmarshal(b.Input, &input); err != nil {
				return nil, fmt.Errorf("tool_use %q: the input is not a JSON object: %w", b.Name, err)
			}
		}
		if input == nil {
			input = map[string]any{}
		}
		part = ai.NewToolRequestPart(&ai.ToolRequest{Ref: b.ID, Name: b.Name, Input: input})
	default:
		return BlockPart(b)
	}
	// Keep the block when the part alone would send something else.
	rebuilt, err := modelBlock(part)
	if err != nil {
		return nil, err
	}
	got, err1 := json.Marshal(b)
	want, err2 := json.Marshal(rebuilt)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("encoding a block: %v", firstErr(err1, err2))
	}
	if string(got) != string(want) {
		if part.Metadata == nil {
			part.Metadata = map[string]any{}
		}
		part.Metadata[MetadataBlock] = string(got)
	}
	return part, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// streamState turns stream events into chunks and the final reply.
type streamState struct {
	acc  mms.MessageAccumulator
	done bool
}

// add folds ev into the reply and returns the chunk it makes, or nil.
func (s *streamState) add(ev mms.MessageStreamEvent) (*ai.ModelResponseChunk, error) {
	if err := s.acc.Add(ev); err != nil {
		return nil, fmt.Errorf("mmsgenkit: %w", err)
	}
	var part *ai.Part
	switch ev := ev.(type) {
	case mms.ContentBlockDeltaEvent:
		switch d := ev.Delta.(type) {
		case mms.TextDelta:
			part = ai.NewTextPart(d.Text)
		case mms.ThinkingDelta:
			part = &ai.Part{Kind: ai.PartReasoning, ContentType: "plain/text", Text: d.Thinking}
		case mms.SignatureDelta:
			part = ai.NewReasoningPart("", []byte(d.Signature))
		}
	case mms.ContentBlockStopEvent:
		// Blocks that do not stream as text go whole when they end.
		content := s.acc.Message().Content
		if ev.Index < 0 || ev.Index >= len(content) {
			return nil, nil
		}
		switch b := content[ev.Index].(type) {
		case mms.TextBlock, mms.ThinkingBlock:
		default:
			var err error
			if part, err = partOf(b); err != nil {
				return nil, fmt.Errorf("mmsgenkit: the reply's content[%d]: %w", ev.Index, err)
			}
		}
	case mms.MessageStopEvent:
		s.done = true
	}
	if part == nil {
		return nil, nil
	}
	return &ai.ModelResponseChunk{Role: ai.RoleModel, Content: []*ai.Part{part}}, nil
}
