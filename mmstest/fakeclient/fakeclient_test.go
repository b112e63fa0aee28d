package fakeclient_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestMain fails the run if a server outlives its test: New must close it
// on cleanup.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func hi() mms.MessageCreateParams {
	return mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{mms.UserText("Hi")}}
}

// TestNew checks that the client reaches the server, even when the
// environment names another service, and that the server is closed when
// the test that made it ends.
func TestNew(t *testing.T) {
	t.Setenv(mms.EnvBaseURL, "http://127.0.0.1:1")
	t.Setenv(mms.EnvAuthToken, "elsewhere")
	var srv *mmstest.Server
	var client *mms.Client
	t.Run("inner", func(t *testing.T) {
		client, srv = fakeclient.New(t)
		msg, err := client.Messages.Create(context.Background(), hi())
		if err != nil || msg.Text() != "You said: Hi" {
			t.Fatalf("Create: %v, %v", msg, err)
		}
	})
	_, err := client.Messages.Create(context.Background(), hi(), option.WithMaxRetries(0))
	if err == nil {
		t.Errorf("the server %s still answers after its test ended", srv.URL)
	}
}

// TestNewWithOptions checks that the options reach the server: a bearer
// token when no API key is accepted.
func TestNewWithOptions(t *testing.T) {
	client, _ := fakeclient.New(t, mmstest.WithAPIKeys(), mmstest.WithAuthTokens("tok"))
	if _, err := client.Messages.Create(context.Background(), hi()); err != nil {
		t.Fatal(err)
	}
}

// fatalTB records Fatalf instead of stopping: the embedded TB is nil, so
// any other method would panic.
type fatalTB struct {
	testing.TB
	cleanups []func()
	fatal    string
}

func (f *fatalTB) Helper()                           {}
func (f *fatalTB) Cleanup(fn func())                 { f.cleanups = append(f.cleanups, fn) }
func (f *fatalTB) Fatalf(format string, args ...any) { f.fatal = fmt.Sprintf(format, args...) }

// TestNewFails checks that a client New cannot build fails the test, and
// that the server is closed anyway.
func TestNewFails(t *testing.T) {
	t.Setenv(mms.EnvAPIKey, "")
	t.Setenv(mms.EnvAuthToken, "")
	tb := &fatalTB{}
	fakeclient.New(tb, mmstest.WithAPIKeys(), mmstest.WithAuthTokens())
	for _, fn := range tb.cleanups {
		fn()
	}
	if !strings.HasPrefix(tb.fatal, "fakeclient: ") || len(tb.cleanups) != 1 {
		t.Errorf("fatal %q, %d cleanups", tb.fatal, len(tb.cleanups))
	}
}

// TestScriptAndFailNext drives a tool call, a fault and the final answer
// through the typed client.
func TestScriptAndFailNext(t *testing.T) {
	client, srv := fakeclient.New(t, mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "clock", Input: `{"zone":"UTC"}`}}},
		mmstest.Turn{Text: "It is noon."},
	))
	p := hi()
	p.Tools = mms.Tools{mms.CustomTool{Name: "clock", InputSchema: mms.InputSchema(`{"type":"object"}`)}}
	ctx := context.Background()
	msg, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	calls := msg.ToolUses()
	if msg.StopReason != mms.StopReasonToolUse || len(calls) != 1 || string(calls[0].Input) != `{"zone":"UTC"}` {
		t.Fatalf("reply %+v", msg)
	}
	p.Messages = append(p.Messages, msg.ToParam(), mms.UserMessage(mms.ToolResult(calls[0].ID, "12:00", false)))

	srv.FailNext("/v1/messages", 500)
	var apiErr *mms.Error
	if _, err := client.Messages.Create(ctx, p, option.WithMaxRetries(0)); !errors.As(err, &apiErr) || apiErr.StatusCode != 500 {
		t.Fatalf("err = %v, want the injected 500", err)
	}
	msg, err = client.Messages.Create(ctx, p)
	if err != nil || msg.Text() != "It is noon." {
		t.Fatalf("final: %v, %v", msg, err)
	}
}

// TestPauseTurnThroughTheSDK pauses a turn and continues it, streaming and
// not, with the SDK's own types: the accumulated paused message goes back
// as it is, the continuation starts with the search result, and the whole
// history (two consecutive assistant turns) is accepted on the next call.
func TestPauseTurnThroughTheSDK(t *testing.T) {
	for _, stream := range []bool{false, true} {
		client, _ := fakeclient.New(t, mmstest.WithScript(mmstest.Turn{PauseTurn: true}, mmstest.Turn{Text: "Found."}))
		ctx := context.Background()
		send := func(p mms.MessageCreateParams) *mms.Message {
			t.Helper()
			if !stream {
				msg, err := client.Messages.Create(ctx, p)
				require.NoError(t, err)
				return msg
			}
			var acc mms.MessageAccumulator
			for ev, err := range client.Messages.Stream(ctx, p) {
				require.NoError(t, err)
				if err := acc.Add(ev); err != nil {
					t.Fatal(err)
				}
			}
			return acc.Message()
		}
		p := hi()
		p.Tools = mms.Tools{mms.WebSearchTool{Version: mms.WebSearch20250305}}
		paused := send(p)
		if paused.StopReason != mms.StopReasonPauseTurn {
			t.Fatalf("stream %v: stop %s", stream, paused.StopReason)
		}
		p.Messages = append(p.Messages, paused.ToParam())
		cont := send(p)
		if _, ok := cont.Content[0].(mms.WebSearchToolResultBlock); !ok || cont.Text() != "Found." {
			t.Fatalf("stream %v: continuation %#v", stream, cont.Content)
		}
		p.Messages = append(p.Messages, cont.ToParam(), mms.UserText("Thanks"))
		if last := send(p); last.Text() != "You said: Thanks" {
			t.Errorf("stream %v: after the continuation: %q", stream, last.Text())
		}
	}
}
