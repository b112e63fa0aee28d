// Package eino makes the service a chat model of Eino
// (github.com/cloudwego/eino): a [*ChatModel] is a
// model.ToolCallingChatModel (and the deprecated model.ChatModel) that sends
// each Generate and Stream call as one Messages request through an
// *mms.Client.
//
//	client, err := mms.NewClient() // the key from $VENDOR_API_KEY
//	if err != nil {
//		return err
//	}
//	cm, err := eino.NewChatModel(client, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024})
//	if err != nil {
//		return err
//	}
//	msg, err := cm.Generate(ctx, []*schema.Message{schema.UserMessage("Hello")})
//	if err != nil {
//		return err
//	}
//	fmt.Println(msg.Content)
//
// # Requests
//
// Leading system messages become the system prompt (after the template's
// System); a system message after the first turn is an error, since the
// service has no place for one. User messages map Content, or
// UserInputMultiContent (or the deprecated MultiContent) parts: text, images
// (base64 with a MIME type, an http(s) URL or a data: URL) and files (PDF as
// base64, URL or data: URL; text/plain as base64 or data: URL) — audio and
// video are refused. Tool messages become tool_result blocks answering
// ToolCallID; consecutive messages of one turn (parallel tool results) are
// sent as one user turn. Assistant messages send their tool calls as
// tool_use blocks whose input is Function.Arguments, which must be a JSON
// object (the empty string stands for {}).
//
// An assistant message this model returned carries the reply's content
// blocks in Extra[ExtraContent]. When its Content and ToolCalls still say
// what those blocks say, the blocks are sent back verbatim: thinking and
// redacted thinking with their signatures and in their places, citations,
// server tool calls and results. When the message was edited, it is rebuilt
// from its fields (text, tool calls), with the signed thinking blocks
// first; its citations and server tool blocks are then not sent. ReasoningContent
// without signed blocks (a message written by hand or by another model) is
// not sent: the service accepts only thinking it signed.
//
// Options: WithModel, WithMaxTokens, WithTemperature, WithTopP, WithStop,
// WithTools and WithToolChoice of package model apply per call, as do this
// package's [WithThinking] and [WithRequestOptions]. ToolChoiceForbidden
// is "none", ToolChoiceAllowed "auto", ToolChoiceForced "any" — or "tool"
// when one allowed tool name is given (or only one tool exists). Tool
// definitions are sent as custom tools whose input_schema is the JSON
// Schema of ParamsOneOf.ToJSONSchema, passed through as an object; no
// parameters is {"type":"object","properties":{}}.
//
// # Replies
//
// Content is the text blocks' text, ReasoningContent the thinking blocks'
// text, ToolCalls the tool_use blocks (Arguments holding the input object's
// JSON). ResponseMeta.FinishReason is the service's stop_reason as it is
// ("end_turn", "tool_use", "max_tokens", …). ResponseMeta.Usage counts
// PromptTokens as all input tokens (cache reads and writes included, with
// the reads in PromptTokenDetails.CachedTokens), CompletionTokens as output
// tokens and ReasoningTokens as the thinking tokens the service reports.
// Extra holds the content blocks ([Content] decodes them; the citations
// are on their text blocks), the request id ([RequestID]), the message id
// and the stop sequence that ended the reply.
//
// Stream sends text, thinking and tool call pieces as they arrive (a tool
// call's chunks share its Index, as schema.ConcatMessages expects); the
// last chunk carries ResponseMeta and Extra, so usage is reported once. A
// failure after the stream started arrives as the reader's error. Closing
// the reader early ends the request at the next event; cancelling ctx ends
// it at once.
//
// # Callbacks
//
// The model reports to Eino's callbacks itself, as Eino's own chat models
// do (IsCallbacksEnabled is true): OnStart with a *model.CallbackInput,
// OnEnd or OnEndWithStreamOutput with *model.CallbackOutput (TokenUsage on
// the final output only), OnError on failure.
//
// # Not mapped
//
// Eino has no place for: a tool result's is_error flag (tool messages are
// sent as successful results), file ids and cache_control on parts,
// audio, video and generated images. Set such things on the request
// template or with [WithRequestOptions] where the SDK allows. The request
// id is captured with option.WithResponseMetadata, so such an option among
// the request options is superseded by the adapter's own.
package eino

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// typeName is the component type reported to callbacks.
const typeName = "MMS"

// ChatModel is an Eino chat model backed by the service's Messages API.
// Create it with [NewChatModel]. It is safe for concurrent use; WithTools
// returns a new ChatModel, while the deprecated BindTools changes this one
// for later calls.
type ChatModel struct {
	client   *mms.Client
	template mms.MessageCreateParams
	reqOpts  []option.RequestOption

	mu    sync.RWMutex
	tools []*schema.ToolInfo
	defs  []mms.Tool // tools as sent
}

var (
	_ model.ToolCallingChatModel = (*ChatModel)(nil)
	//lint:ignore SA1019 the deprecated interface still has callers (react's AgentConfig.Model)
	_ model.ChatModel    = (*ChatModel)(nil)
	_ components.Typer   = (*ChatModel)(nil)
	_ components.Checker = (*ChatModel)(nil)
)

// NewChatModel returns a chat model that sends requests built from template:
// every call sends template with its Messages (which must be empty) taken
// from the call's input, its System followed by the input's system
// messages, and its Tools followed by the Eino tools. template.Model and a
// positive template.MaxTokens are required. opts apply to every request.
func NewChatModel(client *mms.Client, template mms.MessageCreateParams, opts ...option.RequestOption) (*ChatModel, error) {
	switch {
	case client == nil:
		return nil, errors.New("eino: NewChatModel: client is nil")
	case template.Model == "":
		return nil, errors.New("eino: NewChatModel: template.Model is required")
	case template.MaxTokens <= 0:
		return nil, fmt.Errorf("eino: NewChatModel: template.MaxTokens must be positive, got %d", template.MaxTokens)
	case len(template.Messages) > 0:
		return nil, errors.New("eino: NewChatModel: template.Messages must be empty; messages come from each call's input")
	}
	return &ChatModel{client: client, template: template, reqOpts: append([]option.RequestOption(nil), opts...)}, nil
}

// GetType names the component for Eino's callbacks and graphs.
func (m *ChatModel) GetType() string { return typeName }

// IsCallbacksEnabled reports that the model calls Eino's callbacks itself,
// so the framework does not wrap it with its own.
func (m *ChatModel) IsCallbacksEnabled() bool { return true }

// WithTools returns a new ChatModel with tools bound in place of the
// current ones; m is unchanged. A tool whose parameters are not a JSON
// Schema object is an error.
func (m *ChatModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	defs, err := toolDefs(tools)
	if err != nil {
		return nil, err
	}
	return &ChatModel{
		client:   m.client,
		template: m.template,
		reqOpts:  m.reqOpts,
		tools:    append([]*schema.ToolInfo(nil), tools...),
		defs:     defs,
	}, nil
}

// BindTools binds tools to m for its later calls (the deprecated
// model.ChatModel contract). Prefer WithTools, which leaves m unchanged.
func (m *ChatModel) BindTools(tools []*schema.ToolInfo) error {
	defs, err := toolDefs(tools)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tools, m.defs = append([]*schema.ToolInfo(nil), tools...), defs
	return nil
}

// begin starts a call as Eino's own models do: its run info, the prepared
// request (or why it cannot be made) and the OnStart callback, which is
// told even of a call that fails before sending.
func (m *ChatModel) begin(ctx context.Context, input []*schema.Message, opts []model.Option) (context.Context, *call, error) {
	ctx = callbacks.EnsureRunInfo(ctx, m.GetType(), components.ComponentOfChatModel)
	c, err := m.prepare(input, opts)
	return callbacks.OnStart(ctx, c.callbackInput(input)), c, err
}

// Generate sends input as one Messages request and returns the reply.
func (m *ChatModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (out *schema.Message, err error) {
	ctx, c, err := m.begin(ctx, input, opts)
	defer func() {
		if err != nil {
			callbacks.OnError(ctx, err)
		}
	}()
	if err != nil {
		return nil, err
	}
	var md option.ResponseMetadata
	reply, err := m.client.Messages.Create(ctx, c.params, c.requestOptions(&md)...)
	if err != nil {
		return nil, fmt.Errorf("eino: Generate: %w", err)
	}
	out, err = fromMessage(reply, md.RequestID)
	if err != nil {
		return nil, err
	}
	callbacks.OnEnd(ctx, c.callbackOutput(out))
	return out, nil
}

// Stream sends input as one streamed Messages request. An error before the
// first event (the request refused, the connection failed) is returned
// here; later ones arrive through the reader. The caller must Close the
// reader. Closing it early ends the request and releases its connection
// when the next event arrives (Eino tells a stream's writer of a closed
// reader only when it sends); cancel ctx to end a stalled request at once.
func (m *ChatModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (out *schema.StreamReader[*schema.Message], err error) {
	ctx, c, err := m.begin(ctx, input, opts)
	defer func() {
		if err != nil {
			callbacks.OnError(ctx, err)
		}
	}()
	if err != nil {
		return nil, err
	}
	md := new(option.ResponseMetadata)
	next, stop := iter.Pull2(m.client.Messages.Stream(ctx, c.params, c.requestOptions(md)...))
	first, ferr, ok := next()
	if ferr != nil || !ok {
		stop()
		if ferr == nil {
			ferr = mms.ErrStreamTruncated
		}
		return nil, fmt.Errorf("eino: Stream: %w", ferr)
	}

	sr, sw := schema.Pipe[*model.CallbackOutput](1)
	go func() {
		defer sw.Close()
		defer stop() // ends the request: the connection is released
		s := newStreamState(md)
		ev, evErr := first, error(nil)
		for {
			if evErr != nil {
				sw.Send(nil, fmt.Errorf("eino: Stream: %w", evErr))
				return
			}
			chunk, err := s.add(ev)
			if err != nil {
				sw.Send(nil, err)
				return
			}
			if chunk != nil && sw.Send(c.callbackOutput(chunk), nil) {
				return // the reader was closed
			}
			if ev, evErr, ok = next(); !ok {
				break
			}
		}
		if !s.done {
			sw.Send(nil, fmt.Errorf("eino: Stream: %w", mms.ErrStreamTruncated))
		}
	}()
	_, sr = callbacks.OnEndWithStreamOutput(ctx, sr)
	return schema.StreamReaderWithConvert(sr, func(o *model.CallbackOutput) (*schema.Message, error) {
		return o.Message, nil
	}), nil
}
