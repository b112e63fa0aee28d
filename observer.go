package mms

// The observer hook (package observe): the client starts an operation for
// each logical call when an observer is configured, and does nothing at
// all otherwise.

import (
	"context"

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
