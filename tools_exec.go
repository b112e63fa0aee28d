package mms

// Tool execution shared by the two runners: the Messages tool runner
// (tools_runner_exec.go) and the session runner (sessions_run.go) both run
// a tool through runTool and take their unset bounds from here.

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
// ignores its context is left to finish on its own).
func runTool[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	type result struct {
		out T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				ch <- result{err: &ToolPanicError{Value: v, Stack: debug.Stack()}}
			}
		}()
		out, err := f(ctx)
		ch <- result{out, err}
	}()
	select {
	case r := <-ch:
		return r.out, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("mms: the tool did not finish in time: %w", ctx.Err())
	}
}

// ToolPanicError is the error of a tool that panicked. Its message, which
// is what the agent is told, holds the panic value only; Stack is for the
// program's own logs.
type ToolPanicError struct {
	Value any
	Stack []byte
}

// Error gives the panic value only (it is what the agent is told), never
// the stack.
func (e *ToolPanicError) Error() string { return fmt.Sprintf("the tool panicked: %v", e.Value) }
