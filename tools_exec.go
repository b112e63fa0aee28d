package mms

// Tool execution shared by the two runners: the Messages tool runner
// (tools_runner_exec.go) and the session runner (sessions_run.go) both run
// a tool through runTool and take their unset bounds from here. The same
// panic containment covers the program's hooks the SDK calls on its own
// goroutines (the worker's OnStep and OnError, observers): see callHook.

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// The bounds both runners use when their params leave them zero.
const (
	defaultToolConcurrency = 4
	defaultToolTimeout     = 5 * time.Minute
)

// runTool calls f in its own goroutine, turning a panic into a
// *ToolPanicError, and returns when f does or ctx ends (a tool that
// ignores its context is left to finish on its own). hook names the
// function for the error ("" for a tool).
func runTool[T any](ctx context.Context, hook string, f func(context.Context) (T, error)) (T, error) {
	type result struct {
		out T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		defer func() { ch <- r }()
		defer containPanic(hook, &r.err)
		r.out, r.err = f(ctx)
	}()
	select {
	case r := <-ch:
		return r.out, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("mms: the tool did not finish in time: %w", ctx.Err())
	}
}

// callHook calls a program's hook f, turning a panic into a
// *ToolPanicError naming the hook, so that a bug in the hook cannot take
// down the process from a goroutine the SDK started.
func callHook(hook string, f func()) (err error) {
	defer containPanic(hook, &err)
	f()
	return nil
}

// containPanic, deferred, turns a panic into a *ToolPanicError in *err.
// It is the one place the SDK recovers a program's panic (the token
// source and identity function aside, whose panic values may hold a
// secret and are reported by type only).
func containPanic(hook string, err *error) {
	if v := recover(); v != nil {
		*err = &ToolPanicError{Hook: hook, Value: v, Stack: debug.Stack()}
	}
}

// ToolPanicError is the error of a tool, or of a program's hook the SDK
// calls on a goroutine of its own, that panicked: the panic is contained
// and reported as this error instead of ending the process. Its message
// holds the panic value only (for a tool it is what the agent is told);
// Stack is for the program's own logs.
type ToolPanicError struct {
	// Hook names the function that panicked when it is not a tool:
	// "Confirm" (SessionRunParams), "OnStep" or "OnError"
	// (WorkerParams), "observer" (an observe.Observer or its
	// Operation). "" for a tool.
	Hook  string
	Value any
	Stack []byte
}

// Error gives the panic value only (for a tool it is what the agent is
// told), never the stack.
func (e *ToolPanicError) Error() string {
	if e.Hook != "" {
		return fmt.Sprintf("the %s hook panicked: %v", e.Hook, e.Value)
	}
	return fmt.Sprintf("the tool panicked: %v", e.Value)
}
