package fakeclient_test

import (
	"context"
	"fmt"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// exampleTB stands in for the *testing.T a real test passes to New.
type exampleTB struct {
	testing.TB
	cleanups []func()
}

func (e *exampleTB) Helper()                           {}
func (e *exampleTB) Cleanup(fn func())                 { e.cleanups = append(e.cleanups, fn) }
func (e *exampleTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (e *exampleTB) done() {
	for _, fn := range e.cleanups {
		fn()
	}
}

// In a test, New takes the test itself: client, srv := fakeclient.New(t).
// The script decides what the "model" does: here it calls a tool, then
// answers with the tool's result in hand.
func ExampleNew() {
	t := &exampleTB{} // a real test passes its *testing.T
	defer t.done()

	client, srv := fakeclient.New(t)
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_time", Input: `{"zone":"UTC"}`}}},
		mmstest.Turn{Text: "It is noon in UTC."},
	)
	ctx := context.Background()
	p := mms.MessageCreateParams{
		Model:     "mms-large-1",
		MaxTokens: 256,
		Tools:     mms.Tools{mms.CustomTool{Name: "get_time", InputSchema: mms.InputSchema(`{"type":"object"}`)}},
		Messages:  []mms.MessageParam{mms.UserText("What time is it?")},
	}
	msg, err := client.Messages.Create(ctx, p)
	if err != nil {
		panic(err)
	}
	call := msg.ToolUses()[0]
	fmt.Println(msg.StopReason, call.Name, string(call.Input))

	p.Messages = append(p.Messages, msg.ToParam(), mms.UserMessage(mms.ToolResult(call.ID, "12:00", false)))
	msg, err = client.Messages.Create(ctx, p)
	if err != nil {
		panic(err)
	}
	fmt.Println(msg.StopReason, msg.Text())
	// Output:
	// tool_use get_time {"zone":"UTC"}
	// end_turn It is noon in UTC.
}
