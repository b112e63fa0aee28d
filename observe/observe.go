// Package observe is the client's observer hook: every logical operation
// (a Create, a Stream, a list, an upload, a session stream, a tool-runner
// turn, a tool run) is reported to an [Observer] with its HTTP attempts,
// its outcome and, for streams, each event as it arrives. Give one to the
// client or to a call with option.WithObserver; without one the client
// does no observing work at all.
//
// The OpenTelemetry module (github.com/mms-sdk/mms-go/otel) is an Observer
// that emits spans and metrics by the GenAI semantic conventions; a
// program may write its own (logging, accounting, tests).
package observe

import (
	"context"
	"time"
)

// Observer watches a client's operations. Its methods are called from
// many goroutines at once, some of them the client's own (tool runs, the
// session runner, the environment worker): a panic in an Observer or an
// Operation is contained by the client, which logs it (option.WithLogger,
// else slog.Default) and passes that operation nothing more.
type Observer interface {
	// Start begins one logical operation. The returned context is the
	// operation's: the client runs the operation's HTTP attempts and any
	// child operation (a tool run inside a tool-runner turn) under it, so
	// a tracing observer puts its span there. It must not return a nil
	// Operation (Nop is one that does nothing).
	Start(ctx context.Context, op Op) (context.Context, Operation)
}

// Kind says what an operation is.
type Kind string

// The kinds of operations.
const (
	Chat          Kind = "chat"           // Messages.Create, Messages.Stream (Op.Stream)
	CountTokens   Kind = "count_tokens"   // Messages.CountTokens
	List          Kind = "list"           // one list iteration, all its pages
	Upload        Kind = "upload"         // Files.Upload, a skill upload
	SessionStream Kind = "session_stream" // Sessions.Events.Stream, reconnections included
	AgentTurn     Kind = "agent_turn"     // one tool-runner turn: its Chat and its tool runs are children
	ExecuteTool   Kind = "execute_tool"   // one tool call run by the tool runner
	Other         Kind = "other"          // any other call: Get, Delete, client.Do, …
)

// Op describes an operation as it starts.
type Op struct {
	Kind Kind
	// Name is what was called: "Messages.Create", "Models.List",
	// "Files.Upload", "ToolRunner.Turn", or the tool's name.
	Name string
	// Method and Path are the first request's ("" for AgentTurn and
	// ExecuteTool).
	Method, Path string

	// The request parameters that matter, for Chat and CountTokens.
	Model         string
	MaxTokens     int
	Temperature   *float64
	TopP          *float64
	TopK          *int
	StopSequences []string
	Stream        bool
	// ServiceTier is the tier asked for ("auto", "standard_only"; ""
	// when the request leaves it to the default).
	ServiceTier string

	// ToolName and ToolCallID name the call of an ExecuteTool.
	ToolName, ToolCallID string
	// Iteration counts the turns of a tool runner, from 1 (AgentTurn).
	Iteration int

	// Request is the typed request (*mms.MessageCreateParams,
	// *mms.MessageCountTokensParams, the tool input as json.RawMessage for
	// ExecuteTool), or nil. Observers that record content, on the
	// program's say-so, read it; others ignore it.
	Request any
}

// Operation receives what happens during one operation.
type Operation interface {
	// Attempt reports one HTTP attempt, once it was answered or failed.
	Attempt(a Attempt)
	// Event reports one stream event as it arrives (its event type); the
	// observer times it.
	Event(name string)
	// Result reports the outcome, before End; at most once, and not for an
	// operation that failed without a reply.
	Result(r Result)
	// End ends the operation; err is its error, nil on success.
	End(err error)
}

// Attempt is one HTTP attempt of an operation.
type Attempt struct {
	// Number counts the attempts of one request, from 1.
	Number int
	// Method and URL are the request's; the URL has no credentials.
	Method, URL string
	Start       time.Time
	// Duration runs to the response headers, or to the failure.
	Duration time.Duration
	// StatusCode is 0 when no response arrived.
	StatusCode        int
	RequestID         string
	PlatformRequestID string
	// Err is the attempt's error (an *mms.Error for a non-2xx answer), or
	// nil.
	Err error
	// Retry says another attempt follows.
	Retry bool
}

// Result is an operation's outcome.
type Result struct {
	ResponseID    string
	ResponseModel string
	// StopReasons has one entry per reply.
	StopReasons []string
	// ServiceTier and InferenceGeo are the reply's usage.service_tier and
	// usage.inference_geo.
	ServiceTier  string
	InferenceGeo string
	Usage        Usage
	// Response is the typed reply (*mms.Message, *mms.MessageTokensCount,
	// the tool's result content for ExecuteTool), for observers that
	// record content.
	Response any
}

// Usage is the token usage of a reply, every kind the service reports.
type Usage struct {
	// InputTokens is the input not read from or written to the cache, as
	// the service reports it.
	InputTokens              int
	OutputTokens             int
	CacheCreationInputTokens int
	CacheReadInputTokens     int
	CacheCreation5mTokens    int
	CacheCreation1hTokens    int
	// ThinkingTokens is the part of OutputTokens spent thinking.
	ThinkingTokens int
}

// Nop is an Operation that does nothing, for observers that watch only
// some kinds of operations.
type Nop struct{}

func (Nop) Attempt(Attempt) {}
func (Nop) Event(string)    {}
func (Nop) Result(Result)   {}
func (Nop) End(error)       {}
