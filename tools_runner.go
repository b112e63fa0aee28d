package mms

// The tool runner: the agent loop on Messages. It sends the conversation,
// runs the client tools the reply calls, sends their results, and repeats
// until the model stops asking.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/mms-sdk/mms-go/observe"
	"github.com/mms-sdk/mms-go/option"
)

// ErrMaxIterations is the error of a [ToolRunner] that sent
// MaxIterations requests and the model still asked for tools. The
// conversation stays sendable: the last reply's calls were answered.
var ErrMaxIterations = errors.New("mms: the tool runner reached its maximum number of iterations")

// ToolRunnerParams configure [MessagesService.NewToolRunner].
type ToolRunnerParams struct {
	// Params is the first request. Its Messages start the conversation,
	// and its Tools (server tools such as web search, and client tools
	// answered by BeforeTool) stay: the runner appends the definitions of
	// Tools to them. Everything else (model, system, tool_choice, …)
	// applies to every request (a ToolChoice that forces a tool makes
	// every reply call one, so such a run ends at MaxIterations);
	// Container is replaced by the container a reply names, so code
	// execution continues in it.
	Params MessageCreateParams
	// Tools are the client tools the runner runs, by name.
	Tools []RunnableTool
	// MaxIterations bounds the requests sent (default 10).
	MaxIterations int
	// MaxConcurrency bounds the calls of one reply running at once
	// (default 4).
	MaxConcurrency int
	// ToolTimeout bounds one call (default 5 minutes): its context ends
	// then, and a call still running is answered as an error.
	ToolTimeout time.Duration
	// BeforeTool, when set, decides each client call before it runs:
	// run it, deny it, or answer it without running. Calls of a reply are
	// decided one at a time, in the reply's order. An error stops the
	// runner.
	BeforeTool func(ctx context.Context, call ToolUseBlock) (ToolVerdict, error)
	// AfterTool, when set, sees each answered call before its result is
	// sent, one at a time in the reply's order, and may change
	// call.Result. An error stops the runner.
	AfterTool func(ctx context.Context, call *ToolCall) error
}

// The runner's defaults.
const defaultMaxIterations = 10

// ToolVerdict is what a BeforeTool hook decides. The zero value runs the
// call.
type ToolVerdict struct {
	// Deny answers the call with an is_error result saying Message (or
	// that the program denied the call) instead of running it.
	Deny    bool
	Message string
	// Answer, when not nil, is the call's result, sent in place of running
	// the tool (for a tool the program answers itself).
	Answer ContentBlocks
}

// DenyTool returns a verdict that refuses a call, telling the model why.
func DenyTool(message string) ToolVerdict { return ToolVerdict{Deny: true, Message: message} }

// AnswerTool returns a verdict that answers a call with content, without
// running a tool.
func AnswerTool(content ...ContentBlock) ToolVerdict {
	return ToolVerdict{Answer: append(ContentBlocks{}, content...)}
}

// ToolCall is one client tool call of a reply and its answer.
type ToolCall struct {
	// Use is the model's tool_use block.
	Use ToolUseBlock
	// Result is the tool_result sent back.
	Result ToolResultBlock
	// Err is why Result is an error: the tool's error, a *ToolPanicError,
	// a *ToolInputError, a timeout, a denial, or a tool the runner does
	// not have. Nil for a result that is not an error.
	Err error
	// Ran says whether the tool ran (false: denied, answered by
	// BeforeTool, no such tool, or input its schema refused).
	Ran bool
}

// ToolTurn is one request of a run: the model's reply and the calls the
// runner answered.
type ToolTurn struct {
	// Iteration counts the requests, from 1.
	Iteration int
	// Message is the reply.
	Message *Message
	// Calls are the reply's client tool calls with their results, in the
	// reply's order; empty when the reply asked for none.
	Calls []ToolCall
}

// ToolRunEvent is one step of [ToolRunner.Stream]: a stream event of the
// reply being received, or a finished turn. Exactly one field is set.
type ToolRunEvent struct {
	Event MessageStreamEvent
	Turn  *ToolTurn
}

// ToolRunner runs a conversation with client tools: see
// [MessagesService.NewToolRunner]. A runner is not safe for concurrent use.
type ToolRunner struct {
	s         *MessagesService
	p         ToolRunnerParams
	opts      []option.RequestOption
	messages  []MessageParam
	last      *Message
	container string           // the container the last reply named
	observer  observe.Observer // the calls' observer, if any
	sent      int              // requests sent
	done      bool             // the model stopped asking
}

// NewToolRunner returns a runner for p. Nothing is sent until [ToolRunner.Run],
// [ToolRunner.Turns] or [ToolRunner.Stream] is called; opts apply to every
// request.
//
// Each request carries the conversation so far. A reply whose stop reason
// is tool_use has its client calls run (at most MaxConcurrency at once, each
// bounded by ToolTimeout; an error, a panic or input that does not match
// the schema becomes an is_error result) and their results are sent in the
// next request, in one user turn. A pause_turn reply is sent back as it is,
// so the server continues it. Any other stop reason ends the run; so does
// the context, an error, or MaxIterations requests ([ErrMaxIterations]).
func (s *MessagesService) NewToolRunner(p ToolRunnerParams, opts ...option.RequestOption) *ToolRunner {
	return &ToolRunner{s: s, p: p, opts: opts, messages: slices.Clone(p.Params.Messages)}
}

// Messages returns the conversation: the first request's messages, each
// reply and each turn of tool results. It is sendable as it is.
func (r *ToolRunner) Messages() []MessageParam { return slices.Clone(r.messages) }

// SetMessages replaces the conversation the next request sends (between
// turns, to edit the history). A runner that had finished continues: the
// next call of Turns, Stream or Run sends msgs.
func (r *ToolRunner) SetMessages(msgs []MessageParam) {
	r.messages, r.done = slices.Clone(msgs), false
}

// Message returns the last reply received (nil before the first).
func (r *ToolRunner) Message() *Message { return r.last }

// Run runs the conversation to its end and returns the final reply. With
// [ErrMaxIterations] it also returns the last reply.
func (r *ToolRunner) Run(ctx context.Context) (*Message, error) {
	for _, err := range r.Turns(ctx) {
		if err != nil {
			return r.last, err
		}
	}
	return r.last, nil
}

// Turns runs the conversation with non-streaming requests and yields each
// turn once its calls are answered, before their results are sent: the
// loop body may read the turn, change the history with SetMessages, or
// break to stop (calling Turns again continues). An error is yielded once,
// last.
func (r *ToolRunner) Turns(ctx context.Context) iter.Seq2[*ToolTurn, error] {
	return func(yield func(*ToolTurn, error) bool) {
		r.run(ctx, false, func(ev ToolRunEvent, err error) bool { return yield(ev.Turn, err) })
	}
}

// Stream runs the conversation with streaming requests and yields each
// event of each reply as it arrives, then the turn (as Turns does).
// Breaking out in the middle of a reply drops it: calling Stream again
// sends its request again.
func (r *ToolRunner) Stream(ctx context.Context) iter.Seq2[ToolRunEvent, error] {
	return func(yield func(ToolRunEvent, error) bool) { r.run(ctx, true, yield) }
}

// run is the loop of Turns and Stream.
func (r *ToolRunner) run(ctx context.Context, stream bool, yield func(ToolRunEvent, error) bool) {
	if r.done {
		return
	}
	params, tools, err := r.prepare()
	if err != nil {
		yield(ToolRunEvent{}, err)
		return
	}
	for {
		if r.sent >= r.maxIterations() {
			yield(ToolRunEvent{}, ErrMaxIterations)
			return
		}
		if err := ctx.Err(); err != nil {
			yield(ToolRunEvent{}, err)
			return
		}
		params.Messages = r.messages
		if r.container != "" {
			params.Container = withContainerID(r.p.Params.Container, r.container)
		}
		tctx, turnOp := startOp(ctx, r.observer, observe.Op{Kind: observe.AgentTurn, Name: "ToolRunner.Turn",
			Model: params.Model, Iteration: r.sent + 1, Stream: stream, Request: &params})
		msg, ok, err := r.fetchReply(tctx, params, stream, yield)
		if !ok {
			endOp(turnOp, nil)
			return
		}
		if err != nil {
			endOp(turnOp, err)
			yield(ToolRunEvent{}, err)
			return
		}
		r.sent++
		r.last = msg
		r.messages = append(r.messages, msg.ToParam())
		if msg.Container != nil && msg.Container.ID != "" {
			r.container = msg.Container.ID
		}
		turn := &ToolTurn{Iteration: r.sent, Message: msg}
		switch {
		case msg.StopReason == StopReasonToolUse && len(msg.ToolUses()) > 0:
			turn.Calls, err = r.answer(tctx, tools, msg.ToolUses())
			if err != nil {
				endOp(turnOp, err)
				yield(ToolRunEvent{}, err)
				return
			}
			results := make([]ContentBlock, len(turn.Calls))
			for i, c := range turn.Calls {
				results[i] = c.Result
			}
			r.messages = append(r.messages, UserMessage(results...))
		case msg.StopReason == StopReasonPauseTurn:
		default:
			r.done = true
		}
		if turnOp != nil {
			turnOp.Result(messageResult(msg))
			turnOp.End(nil)
		}
		if !yield(ToolRunEvent{Turn: turn}, nil) || r.done {
			return
		}
	}
}

func (r *ToolRunner) maxIterations() int {
	if r.p.MaxIterations > 0 {
		return r.p.MaxIterations
	}
	return defaultMaxIterations
}

// Validate reports a negative MaxIterations, MaxConcurrency or
// ToolTimeout. The tools and the request are checked when the runner
// starts (a nil or duplicate tool, then [MessageCreateParams.Validate]).
func (p ToolRunnerParams) Validate() error {
	switch {
	case p.MaxIterations < 0:
		return invalid("MaxIterations", "must not be negative, got %d", p.MaxIterations)
	case p.MaxConcurrency < 0:
		return invalid("MaxConcurrency", "must not be negative, got %d", p.MaxConcurrency)
	case p.ToolTimeout < 0:
		return invalid("ToolTimeout", "must not be negative")
	}
	return nil
}

// prepare checks the runner's params and returns the request with the
// runner's tools appended, and the tools by name. Nothing has been sent.
func (r *ToolRunner) prepare() (MessageCreateParams, map[string]RunnableTool, error) {
	p := r.p
	if err := p.Validate(); err != nil {
		return MessageCreateParams{}, nil, err
	}
	params := p.Params
	params.Messages = r.messages
	params.Tools = slices.Clip(slices.Clone(params.Tools))
	names := map[string]bool{}
	for _, t := range params.Tools {
		if name := runnableName(t); name != "" {
			names[name] = true
		}
	}
	byName := make(map[string]RunnableTool, len(p.Tools))
	for i, t := range p.Tools {
		field := fmt.Sprintf("Tools[%d]", i)
		if t == nil {
			return MessageCreateParams{}, nil, invalid(field, "must not be nil")
		}
		def, err := runnableParam(t)
		if err != nil {
			return MessageCreateParams{}, nil, fmt.Errorf("mms: %s: %w", field, err)
		}
		name := runnableName(def)
		if names[name] {
			return MessageCreateParams{}, nil, invalid(field, "the name %q is already used by another tool", name)
		}
		names[name] = true
		byName[name] = t
		params.Tools = append(params.Tools, def)
	}
	if err := params.Validate(); err != nil {
		return MessageCreateParams{}, nil, err
	}
	if cl := r.s.client.newCall(r.opts); cl.err == nil {
		r.observer = cl.cfg.Observer
	}
	return params, byName, nil
}

// fetchReply asks the model for its next reply (one Create or Stream) and
// returns it. ok is false when the program stopped the iteration (a Stream
// loop body broke out).
func (r *ToolRunner) fetchReply(ctx context.Context, params MessageCreateParams, stream bool, yield func(ToolRunEvent, error) bool) (msg *Message, ok bool, err error) {
	if !stream {
		msg, err = r.s.Create(ctx, params, r.opts...)
		return msg, true, err
	}
	var acc MessageAccumulator
	for ev, err := range r.s.Stream(ctx, params, r.opts...) {
		if err == nil {
			err = acc.Add(ev)
		}
		if err != nil {
			return nil, true, err
		}
		if !yield(ToolRunEvent{Event: ev}, nil) {
			return nil, false, nil
		}
	}
	return acc.Message(), true, nil // Stream ends with an error unless message_stop arrived
}

// withContainerID returns the container param naming id, keeping the
// skills of c.
func withContainerID(c *ContainerParam, id string) *ContainerParam {
	next := ContainerParam{ID: id}
	if c != nil {
		next.Skills = c.Skills
	}
	return &next
}

// runnableParam is the tool t sends: a BuiltinTool's ToolParam, else its
// Definition.
func runnableParam(t RunnableTool) (Tool, error) {
	if b, ok := t.(BuiltinTool); ok {
		tool := b.ToolParam()
		if runnableName(tool) == "" {
			return nil, errors.New("ToolParam: not a client-run tool with a name")
		}
		return tool, nil
	}
	return t.Definition()
}

// runnableName is the name a client-run tool's calls carry ("" for a
// tool the service runs).
func runnableName(t Tool) string {
	switch v := t.(type) {
	case CustomTool:
		return v.Name
	case MemoryTool:
		return cmp.Or(v.Name, "memory")
	}
	return ""
}
