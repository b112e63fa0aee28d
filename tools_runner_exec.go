package mms

// Running the client calls of one reply: hooks in order, tools in
// parallel (bounded), results in the reply's order.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"sync"
)

// deniedMessage is the result text of a call denied without a message.
const deniedMessage = "the program denied this tool call"

// answer runs the calls of one reply and returns them answered, in order.
// An error comes from a hook and means nothing more is sent.
func (r *ToolRunner) answer(ctx context.Context, tools map[string]RunnableTool, uses []ToolUseBlock) ([]ToolCall, error) {
	calls := make([]ToolCall, len(uses))
	var run []int // the calls to run, by index
	for i, use := range uses {
		calls[i].Use = use
		verdict := ToolVerdict{}
		if r.p.BeforeTool != nil {
			v, err := r.p.BeforeTool(ctx, use)
			if err != nil {
				return nil, fmt.Errorf("mms: BeforeTool (call %s of %s): %w", use.ID, use.Name, err)
			}
			verdict = v
		}
		switch {
		case verdict.Deny:
			msg := cmp.Or(verdict.Message, deniedMessage)
			calls[i].Err = fmt.Errorf("mms: denied: %s", msg)
			calls[i].Result = ToolResult(use.ID, msg, true)
		case verdict.Answer != nil:
			calls[i].Result = resultBlock(use.ID, verdict.Answer, false)
		case tools[use.Name] == nil:
			calls[i].Err = fmt.Errorf("mms: the tool runner has no tool named %q", use.Name)
			calls[i].Result = ToolResult(use.ID, fmt.Sprintf("no tool named %q is available", use.Name), true)
		default:
			run = append(run, i)
		}
	}
	r.runCalls(ctx, tools, calls, run)
	if r.p.AfterTool != nil {
		for i := range calls {
			if err := r.p.AfterTool(ctx, &calls[i]); err != nil {
				return nil, fmt.Errorf("mms: AfterTool (call %s of %s): %w", calls[i].Use.ID, calls[i].Use.Name, err)
			}
		}
	}
	return calls, nil
}

// runCalls runs calls[i] for each i of run, at most MaxConcurrency at once,
// and fills in their results.
func (r *ToolRunner) runCalls(ctx context.Context, tools map[string]RunnableTool, calls []ToolCall, run []int) {
	limit := cmp.Or(r.p.MaxConcurrency, defaultToolConcurrency)
	timeout := cmp.Or(r.p.ToolTimeout, defaultToolTimeout)
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for _, i := range run {
		c := &calls[i]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			octx, op := startOp(ctx, r.observer, observe.Op{Kind: observe.ExecuteTool, Name: c.Use.Name,
				ToolName: c.Use.Name, ToolCallID: c.Use.ID, Request: c.Use.Input})
			tctx, cancel := context.WithTimeout(octx, timeout)
			defer cancel()
			tool := tools[c.Use.Name]
			content, err := runTool(tctx, "", func(ctx context.Context) (ContentBlocks, error) {
				return tool.Run(ctx, c.Use.Input)
			})
			if op != nil {
				if err == nil {
					op.Result(observe.Result{Response: content})
				}
				op.End(err)
			}
			var inputErr *ToolInputError
			c.Ran, c.Err = !errors.As(err, &inputErr), err
			if err != nil {
				c.Result = ToolResult(c.Use.ID, err.Error(), true)
				return
			}
			c.Result = resultBlock(c.Use.ID, content, false)
		}()
	}
	wg.Wait()
}

// resultBlock is the tool_result answering id with content: the string
// shorthand for one plain text block, as ToolResult writes it.
func resultBlock(id string, content ContentBlocks, isError bool) ToolResultBlock {
	if len(content) == 1 {
		if t, ok := content[0].(TextBlock); ok && t.Citations == nil && t.CacheControl == nil && t.Extra == nil {
			return ToolResult(id, t.Text, isError)
		}
	}
	return ToolResultBlocks(id, isError, content...)
}
