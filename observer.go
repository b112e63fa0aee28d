package mms

// The observer hook (package observe): the client starts an operation for
// each logical call when an observer is configured, and does nothing at
// all otherwise.

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"

	"github.com/mms-sdk/mms-go/observe"
)

// opKey is the context key of the operation being observed.
type opKey struct{}

// opFrom returns the operation ctx is running under, or nil.
func opFrom(ctx context.Context) observe.Operation {
	o, _ := ctx.Value(opKey{}).(observe.Operation)
	return o
}

// startOp starts op when obs is not nil; the returned context carries the
// operation for the requests made under it. With no observer it returns
// ctx and a nil Operation.
func startOp(ctx context.Context, obs observe.Observer, op observe.Op) (context.Context, observe.Operation) {
	if obs == nil {
		return ctx, nil
	}
	ctx, o := obs.Start(ctx, op)
	if o == nil {
		o = observe.Nop{}
	}
	return context.WithValue(ctx, opKey{}, o), o
}

// endOp ends o (nil: not observed) with err.
func endOp(o observe.Operation, err error) {
	if o != nil {
		o.End(err)
	}
}

// guardObserver wraps obs so that a panic in it, or in an Operation it
// returned, is contained instead of ending the process (the SDK calls
// observers on goroutines of its own: tool runs, the session runner, the
// worker): the panic is logged on logger as a *ToolPanicError (Hook
// "observer") and the operation is observed no further. A guarded
// observer is unwrapped first, so that a call's own logger or observer
// takes over.
func guardObserver(obs observe.Observer, logger *slog.Logger) observe.Observer {
	if g, ok := obs.(*guardedObserver); ok {
		obs = g.obs
	}
	if obs == nil {
		return nil
	}
	return &guardedObserver{obs: obs, logger: logger}
}

type guardedObserver struct {
	obs    observe.Observer
	logger *slog.Logger
}

func (g *guardedObserver) Start(ctx context.Context, op observe.Op) (context.Context, observe.Operation) {
	octx, o := ctx, observe.Operation(nil)
	if err := callHook("observer", func() { octx, o = g.obs.Start(ctx, op) }); err != nil {
		logHookPanic(g.logger, err)
		return ctx, observe.Nop{}
	}
	if octx == nil {
		octx = ctx
	}
	if o == nil {
		o = observe.Nop{}
	}
	return octx, &guardedOp{op: o, logger: g.logger}
}

// guardedOp is an Operation whose panics are contained; after one it
// passes nothing on.
type guardedOp struct {
	op     observe.Operation
	logger *slog.Logger
	off    atomic.Bool
}

func (g *guardedOp) Attempt(a observe.Attempt) { g.call(func() { g.op.Attempt(a) }) }
func (g *guardedOp) Event(name string)         { g.call(func() { g.op.Event(name) }) }
func (g *guardedOp) Result(r observe.Result)   { g.call(func() { g.op.Result(r) }) }
func (g *guardedOp) End(err error)             { g.call(func() { g.op.End(err) }) }

func (g *guardedOp) call(f func()) {
	if g.off.Load() {
		return
	}
	if err := callHook("observer", f); err != nil {
		g.off.Store(true)
		logHookPanic(g.logger, err)
	}
}

// logHookPanic logs a hook's contained panic that has no caller to be
// returned to (an observer's, the worker's OnError): on logger, or
// slog.Default when the program set none, at error level with the stack.
func logHookPanic(logger *slog.Logger, err error) {
	if logger == nil {
		logger = slog.Default()
	}
	attrs := []slog.Attr{slog.String("error", err.Error())}
	var pe *ToolPanicError
	if errors.As(err, &pe) {
		attrs = append(attrs, slog.String("stack", string(pe.Stack)))
	}
	logger.LogAttrs(context.Background(), slog.LevelError, "mms: a hook panicked; the SDK contained the panic", attrs...)
}

// chatOp describes a Messages call.
func chatOp(kind observe.Kind, name string, p *MessageCreateParams, stream bool) observe.Op {
	return observe.Op{
		Kind: kind, Name: name, Method: "POST", Path: "/v1/messages",
		Model: p.Model, MaxTokens: p.MaxTokens, Temperature: p.Temperature, TopP: p.TopP, TopK: p.TopK,
		StopSequences: p.StopSequences, Stream: stream, ServiceTier: string(p.ServiceTier), Request: p,
	}
}

// messageResult is the observed outcome of a reply.
func messageResult(m *Message) observe.Result {
	r := observe.Result{ResponseID: m.ID, ResponseModel: m.Model, ServiceTier: string(m.Usage.ServiceTier),
		Usage: observedUsage(m.Usage), Response: m}
	if m.StopReason != "" {
		r.StopReasons = []string{string(m.StopReason)}
	}
	if m.Usage.InferenceGeo != nil {
		r.InferenceGeo = *m.Usage.InferenceGeo
	}
	return r
}

// observedUsage copies every token kind of u.
func observedUsage(u Usage) observe.Usage {
	o := observe.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
	if u.CacheCreationInputTokens != nil {
		o.CacheCreationInputTokens = *u.CacheCreationInputTokens
	}
	if u.CacheReadInputTokens != nil {
		o.CacheReadInputTokens = *u.CacheReadInputTokens
	}
	if c := u.CacheCreation; c != nil {
		o.CacheCreation5mTokens, o.CacheCreation1hTokens = c.Ephemeral5mInputTokens, c.Ephemeral1hInputTokens
	}
	if d := u.OutputTokensDetails; d != nil {
		o.ThinkingTokens = d.ThinkingTokens
	}
	return o
}
