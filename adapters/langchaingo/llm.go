package langchaingo

import (
	"context"
	"errors"
	"fmt"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
	"github.com/tmc/langchaingo/callbacks"
	"github.com/tmc/langchaingo/llms"
)

// DefaultMaxTokens is the max_tokens sent when neither the call
// (llms.WithMaxTokens) nor New (WithMaxTokens) sets one: the service
// requires the member.
const DefaultMaxTokens = 4096

// DefaultReplyMemory is how many tool-calling replies an LLM remembers by
// default (see WithReplyMemory).
const DefaultReplyMemory = 256

// LLM is an llms.Model backed by the Messages API of an *mms.Client. It is
// safe for concurrent use.
type LLM struct {
	// CallbacksHandler, when set, is told of each GenerateContent call's
	// start, end and error, as langchaingo's own providers do.
	CallbacksHandler callbacks.Handler

	client    *mms.Client
	model     string
	maxTokens int
	reqOpts   []option.RequestOption
	defaults  []llms.CallOption
	memory    *replyMemory
}

var _ llms.Model = (*LLM)(nil)

// Option configures an LLM in New.
type Option func(*LLM)

// WithModel sets the model used when a call does not name one with
// llms.WithModel.
func WithModel(model string) Option { return func(l *LLM) { l.model = model } }

// WithMaxTokens sets the max_tokens used when a call does not set one with
// llms.WithMaxTokens (DefaultMaxTokens otherwise); it must be positive.
// With thinking on it must exceed the thinking budget.
func WithMaxTokens(n int) Option { return func(l *LLM) { l.maxTokens = n } }

// WithRequestOptions adds SDK request options (timeouts, retries, betas,
// headers) to every request the LLM sends. option.WithResponseMetadata
// does not belong here: the LLM sets its own destination on each call,
// which replaces it (the request id is in GenerationInfo, InfoRequestID).
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(l *LLM) { l.reqOpts = append(l.reqOpts, opts...) }
}

// WithCallOptions sets call options applied before each call's own, so
// code that builds the calls itself (langchaingo's agents and chains) gets
// them too: llms.WithThinkingBudget, llms.WithTemperature and so on.
func WithCallOptions(opts ...llms.CallOption) Option {
	return func(l *LLM) { l.defaults = append(l.defaults, opts...) }
}

// WithReplyMemory sets how many tool-calling replies the LLM remembers
// (DefaultReplyMemory by default; 0 turns the memory off). langchaingo's
// agents rebuild the assistant turn of a tool call from its tool calls
// alone, dropping the thinking blocks and their signatures, which the
// service needs back, and put the tool's extracted input where its JSON
// arguments were (OpenAIFunctionsAgent). An assistant message made of text
// and tool calls whose ids and names are those of a remembered reply's
// tool calls, in order, is therefore sent as the service sent that reply:
// thinking, text and tool calls with their inputs, in their order.
func WithReplyMemory(n int) Option { return func(l *LLM) { l.memory = newReplyMemory(n) } }

// New returns an LLM that sends its requests through client.
func New(client *mms.Client, opts ...Option) (*LLM, error) {
	if client == nil {
		return nil, errors.New("mms/langchaingo: New: client is nil")
	}
	l := &LLM{client: client, maxTokens: DefaultMaxTokens, memory: newReplyMemory(DefaultReplyMemory)}
	for _, o := range opts {
		o(l)
	}
	if l.maxTokens <= 0 {
		return nil, fmt.Errorf("mms/langchaingo: New: WithMaxTokens(%d): max tokens must be positive", l.maxTokens)
	}
	if l.memory.max < 0 {
		return nil, fmt.Errorf("mms/langchaingo: New: WithReplyMemory(%d): the size must not be negative", l.memory.max)
	}
	return l, nil
}

// Call sends prompt as one user message and returns the reply's text.
//
// Deprecated: langchaingo keeps Call for old code; use GenerateContent or
// llms.GenerateFromSinglePrompt.
func (l *LLM) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, l, prompt, options...)
}

// GenerateContent sends messages to the Messages API and returns the reply
// as one choice (see the package documentation for what maps where). With
// llms.WithStreamingFunc or llms.WithStreamingReasoningFunc the reply is
// streamed: text deltas go to the streaming func (and to the reasoning func
// as its chunk), thinking deltas to the reasoning func; an error returned by
// either stops the stream, closes the connection and is returned wrapped.
// Errors of the service are *mms.Error values, wrapped.
func (l *LLM) GenerateContent(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	if l.CallbacksHandler != nil {
		l.CallbacksHandler.HandleLLMGenerateContentStart(ctx, messages)
	}
	resp, err := l.generate(ctx, messages, options)
	if err != nil {
		if l.CallbacksHandler != nil {
			l.CallbacksHandler.HandleLLMError(ctx, err)
		}
		return nil, err
	}
	if l.CallbacksHandler != nil {
		l.CallbacksHandler.HandleLLMGenerateContentEnd(ctx, resp)
	}
	return resp, nil
}

func (l *LLM) generate(ctx context.Context, messages []llms.MessageContent, options []llms.CallOption) (*llms.ContentResponse, error) {
	var opts llms.CallOptions
	for _, o := range l.defaults {
		o(&opts)
	}
	for _, o := range options {
		o(&opts)
	}
	p, extra, err := l.params(messages, &opts)
	if err != nil {
		return nil, fmt.Errorf("mms/langchaingo: %w", err)
	}
	var md mms.ResponseMetadata
	reqOpts := make([]option.RequestOption, 0, len(l.reqOpts)+len(extra)+1)
	reqOpts = append(append(append(reqOpts, l.reqOpts...), extra...), option.WithResponseMetadata(&md))

	var msg *mms.Message
	if opts.StreamingFunc != nil || opts.StreamingReasoningFunc != nil {
		msg, err = l.stream(ctx, p, reqOpts, &opts)
	} else {
		msg, err = l.client.Messages.Create(ctx, p, reqOpts...)
	}
	if err != nil {
		return nil, fmt.Errorf("mms/langchaingo: %w", err)
	}
	l.memory.remember(msg)
	return response(msg, md.RequestID), nil
}

// stream sends p as a stream, handing the deltas to the call's streaming
// funcs, and returns the accumulated message. Returning from inside the
// range loop ends the sequence, which closes the connection.
func (l *LLM) stream(ctx context.Context, p mms.MessageCreateParams, reqOpts []option.RequestOption, opts *llms.CallOptions) (*mms.Message, error) {
	var acc mms.MessageAccumulator
	for ev, err := range l.client.Messages.Stream(ctx, p, reqOpts...) {
		if err != nil {
			return nil, err
		}
		// The sequence goes on yielding events already received after
		// the context ends; a cancelled call stops here instead.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := acc.Add(ev); err != nil {
			return nil, err
		}
		d, ok := ev.(mms.ContentBlockDeltaEvent)
		if !ok {
			continue
		}
		var text, thinking []byte
		switch delta := d.Delta.(type) {
		case mms.TextDelta:
			text = []byte(delta.Text)
		case mms.ThinkingDelta:
			thinking = []byte(delta.Thinking)
		default:
			continue
		}
		if text != nil && opts.StreamingFunc != nil {
			if err := opts.StreamingFunc(ctx, text); err != nil {
				return nil, fmt.Errorf("streaming func: %w", err)
			}
		}
		if opts.StreamingReasoningFunc != nil {
			if err := opts.StreamingReasoningFunc(ctx, thinking, text); err != nil {
				return nil, fmt.Errorf("streaming reasoning func: %w", err)
			}
		}
	}
	if !acc.Done() {
		// Stream yields an error for every stream that ends early; this
		// guards the accumulator's contract, not the service's.
		return nil, mms.ErrStreamTruncated
	}
	return acc.Message(), nil
}
