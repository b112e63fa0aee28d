package mms

// The session runner: a Go program's half of a session. It streams the
// session's events from its start (so calls made before it started are
// reconciled), answers the calls it owns, and reports what it did.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// SessionToolFunc runs one call of a custom tool and returns its result
// text. An error becomes an is_error result carrying the error's text.
type SessionToolFunc func(ctx context.Context, call AgentCustomToolUseEvent) (string, error)

// SandboxToolFunc runs one built-in tool call (bash, read, write, …) of a
// self-hosted environment and returns its output. An error becomes an
// is_error result carrying the error's text.
type SandboxToolFunc func(ctx context.Context, call AgentToolUseEvent) (string, error)

// ToolDecision answers a tool call whose permission is "ask".
type ToolDecision struct {
	// Allow lets the call run; false denies it.
	Allow bool
	// DenyMessage tells the agent why a call was denied (optional).
	DenyMessage string
}

// ConfirmFunc decides a call whose permission is "ask": an
// [AgentToolUseEvent] or an [AgentMCPToolUseEvent].
type ConfirmFunc func(ctx context.Context, call SessionEvent) (ToolDecision, error)

// SessionRunParams configure [SessionsService.Run].
type SessionRunParams struct {
	// Tools runs the agent's custom tools, by name. A call of a tool not
	// here is left to whoever owns it.
	Tools map[string]SessionToolFunc
	// Sandbox runs the built-in tool calls of a self-hosted environment
	// (answered with user.tool_result) once their permission allows them.
	// Nil leaves them to whoever owns them; set it only for a self-hosted
	// environment (a cloud environment runs them itself).
	Sandbox SandboxToolFunc
	// Confirm decides the calls whose permission is "ask". Nil leaves the
	// decision to someone else: such a call waits until a
	// user.tool_confirmation arrives, and a denied call never runs.
	Confirm ConfirmFunc
	// MaxConcurrency bounds the tool calls and decisions running at once
	// (default 4).
	MaxConcurrency int
	// ToolTimeout bounds one tool call (default 5 minutes): its context
	// ends then, and a call still running is answered as an error.
	ToolTimeout time.Duration
	// ResultTimeout is how long posting one result or decision is retried
	// (backoff from 1 s to 30 s) before Run gives up (default 5 minutes,
	// the work lease of a self-hosted session; a worker that keeps its
	// lease alive may set more).
	ResultTimeout time.Duration
	// IdleTimeout is how long Run waits, once the session is idle after
	// end_turn with nothing left to answer, before it returns (default 0:
	// at once). Events arriving meanwhile start the wait over.
	IdleTimeout time.Duration
	// UntilTerminated keeps Run going through idle periods until the
	// session is terminated or deleted, or ctx ends.
	UntilTerminated bool
	// Stream sets the previews and the reconnect policy of the runner's
	// event stream. IncludeHistory is always on: the runner reconciles the
	// session's past events.
	Stream SessionEventStreamParams
}

// The runner's defaults.
const (
	defaultRunResultTimeout = 5 * time.Minute
	resultRetryMin          = time.Second
	resultRetryMax          = 30 * time.Second
	// emptyToolOutput replaces an empty result, which the service refuses
	// with a 400.
	emptyToolOutput = "(no output)"
)

// Validate reports the first rule the params break: an unnamed or nil
// tool, or a negative bound.
func (p SessionRunParams) Validate() error {
	for name, f := range p.Tools {
		switch {
		case name == "":
			return invalid("Tools", "a tool name must not be empty")
		case f == nil:
			return invalid("Tools["+name+"]", "must not be nil")
		}
	}
	switch {
	case p.MaxConcurrency < 0:
		return invalid("MaxConcurrency", "must not be negative, got %d", p.MaxConcurrency)
	case p.ToolTimeout < 0, p.ResultTimeout < 0, p.IdleTimeout < 0:
		return invalid("ToolTimeout", "timeouts must not be negative")
	}
	return p.Stream.Validate()
}

// SessionRunStepKind says what a [SessionRunStep] reports.
type SessionRunStepKind string

// The kinds of steps.
const (
	// StepEvent: an event of the session arrived (Event).
	StepEvent SessionRunStepKind = "event"
	// StepToolResult: a custom tool ran and its result was posted
	// (Event is the call; Output, IsError; Err is the tool's error).
	StepToolResult SessionRunStepKind = "tool_result"
	// StepSandboxResult: a built-in tool ran (Sandbox) and its result was
	// posted.
	StepSandboxResult SessionRunStepKind = "sandbox_result"
	// StepConfirmation: a decision was posted (Event is the call;
	// Decision).
	StepConfirmation SessionRunStepKind = "confirmation"
	// StepRetry: posting failed and will be retried (Event is the call;
	// Err is why; Attempt the attempts so far).
	StepRetry SessionRunStepKind = "retry"
)

// A SessionRunStep is one thing a session runner saw or did. Events come
// in the session's order, but an action is reported when its post
// returns, so the events it caused (the agent's reply to a result, even
// the end_turn idle) may come first; Run itself returns only after every
// action it started has been reported.
type SessionRunStep struct {
	Kind SessionRunStepKind
	// Event is the event that arrived, or the call the step is about.
	Event SessionEvent
	// Output and IsError are the result posted.
	Output  string
	IsError bool
	// Decision is the decision posted (StepConfirmation).
	Decision ToolDecision
	// Err is the tool's error (a result step) or why a post failed
	// (StepRetry).
	Err error
	// Attempt counts the attempts to post (StepRetry).
	Attempt int
}

// Run drives a session from this program: it streams the session's events
// from its start, runs each custom tool call of p.Tools once (bounded by
// MaxConcurrency and ToolTimeout; a panic or an error becomes an is_error
// result, an empty output the placeholder "(no output)"), posts the
// results with retries that last ResultTimeout, decides "ask" calls with
// p.Confirm, runs allowed built-in calls with p.Sandbox, and leaves every
// call it does not own to its owner. Calls made before Run started are
// answered when they have no answer yet.
//
// Every event and every action is yielded as a [SessionRunStep]. Run ends
// without an error when the session is terminated or deleted, or when it
// has been idle after end_turn for IdleTimeout (unless UntilTerminated);
// it ends with the error when the stream fails for good, a result cannot
// be posted within ResultTimeout, or ctx ends. Leaving the loop stops the
// runner and waits for its running tools to see their contexts end.
// Send the session's input before Run, or from another goroutine with
// UntilTerminated or an IdleTimeout.
func (s *SessionsService) Run(ctx context.Context, sessionID string, p SessionRunParams, opts ...option.RequestOption) iter.Seq2[SessionRunStep, error] {
	if _, err := pathID("session_id", sessionID); err != nil {
		return listError[SessionRunStep](err)
	}
	if err := p.Validate(); err != nil {
		return listError[SessionRunStep](err)
	}
	return func(yield func(SessionRunStep, error) bool) {
		r := &sessionRun{events: s.Events, sessionID: sessionID, p: p.withDefaults(), opts: opts,
			calls: map[string]*runCall{}, done: make(chan runDone)}
		r.run(ctx, yield)
	}
}

func (p SessionRunParams) withDefaults() SessionRunParams {
	p.MaxConcurrency = cmp.Or(p.MaxConcurrency, defaultToolConcurrency)
	p.ToolTimeout = cmp.Or(p.ToolTimeout, defaultToolTimeout)
	p.ResultTimeout = cmp.Or(p.ResultTimeout, defaultRunResultTimeout)
	p.Stream.IncludeHistory = true
	return p
}

// sessionRun is one run of a session.
type sessionRun struct {
	events    *SessionEventsService
	sessionID string
	p         SessionRunParams
	opts      []option.RequestOption

	calls   map[string]*runCall // by the call's event id
	order   []string            // call ids in arrival order
	live    bool                // the stream is past its history and its gap fills
	running int                 // workers started and not done
	idle    bool                // idle after end_turn
	done    chan runDone
	wg      sync.WaitGroup
	sem     chan struct{}
	// deadThreads are the threads session.thread_status_terminated named:
	// their calls are not run, awaited or answered.
	deadThreads map[string]bool
}

// runCall is a tool call the session made.
type runCall struct {
	ev       SessionEvent
	kind     runCallKind
	answered bool // a result (or a denial) is stored
	allowed  bool // runnable: permission allow, or confirmed
	asked    bool // needs a decision and has none yet
	started  bool // a worker took it
	decided  bool // a worker took its decision
	// cancel stops the call's worker (its thread terminated); set by the
	// run loop before the worker starts.
	cancel context.CancelFunc
}

type runCallKind uint8

const (
	callCustom  runCallKind = iota // agent.custom_tool_use
	callSandbox                    // agent.tool_use
	callMCP                        // agent.mcp_tool_use: the service runs it; only decisions
)

// runDone is what a worker reports.
type runDone struct {
	step     SessionRunStep
	err      error // fatal: the result could not be posted
	progress bool  // a step on the way (a retry); the worker goes on
	dropped  bool  // the call's thread terminated: nothing was posted, nothing to report
}

// streamItem is what the stream goroutine hands the run loop.
type streamItem struct {
	ev    SessionEvent
	err   error
	phase streamPhase
}

// streamPhase says what a streamItem is.
type streamPhase uint8

const (
	phaseEvent streamPhase = iota // an event or the stream's error
	phaseGap                      // a gap fill starts
	phaseLive                     // the stream is live again
)

func (r *sessionRun) run(ctx context.Context, yield func(SessionRunStep, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	items := make(chan streamItem)
	r.sem = make(chan struct{}, r.p.MaxConcurrency)
	defer func() {
		cancel()
		r.wg.Wait()
	}()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(items)
		send := func(it streamItem) bool {
			select {
			case items <- it:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for ev, err := range r.events.stream(ctx, r.sessionID, r.p.Stream, r.opts, func(live bool) {
			phase := phaseGap
			if live {
				phase = phaseLive
			}
			send(streamItem{phase: phase})
		}) {
			if !send(streamItem{ev: ev, err: err}) || err != nil {
				return
			}
		}
	}()
	var idleTimer *time.Timer
	var idleC <-chan time.Time
	defer func() {
		if idleTimer != nil {
			idleTimer.Stop()
		}
	}()
	for {
		select {
		case it, ok := <-items:
			if !ok {
				return // the session ended
			}
			if it.err != nil {
				yield(SessionRunStep{}, it.err)
				return
			}
			switch it.phase {
			case phaseGap:
				r.live = false
				continue
			case phaseLive:
				r.live = true
			default:
				if !yield(SessionRunStep{Kind: StepEvent, Event: it.ev}, nil) {
					return
				}
				r.note(it.ev)
			}
		case d := <-r.done:
			if !d.progress {
				r.running--
			}
			if d.dropped {
				continue
			}
			if d.err != nil {
				yield(d.step, d.err)
				return
			}
			if !yield(d.step, nil) {
				return
			}
		case <-idleC:
			return
		case <-ctx.Done():
			yield(SessionRunStep{}, fmt.Errorf("mms: running session %s: %w", r.sessionID, ctx.Err()))
			return
		}
		if r.live {
			r.dispatch(ctx)
		}
		// The idle wait runs while the session is idle after end_turn
		// and the runner has nothing in hand.
		if idleTimer != nil {
			idleTimer.Stop()
			idleTimer, idleC = nil, nil
		}
		if r.live && r.idle && r.running == 0 && !r.p.UntilTerminated && !r.owesAnswers() {
			idleTimer = time.NewTimer(r.p.IdleTimeout)
			idleC = idleTimer.C
		}
	}
}

// note updates the calls with an event.
func (r *sessionRun) note(ev SessionEvent) {
	switch ev := ev.(type) {
	case AgentCustomToolUseEvent:
		if _, ok := r.p.Tools[ev.Name]; ok {
			r.add(ev.ID, &runCall{ev: ev, kind: callCustom, allowed: true})
		}
	case AgentToolUseEvent:
		r.addPermissioned(ev.ID, &runCall{ev: ev, kind: callSandbox}, ev.Permission())
	case AgentMCPToolUseEvent:
		r.addPermissioned(ev.ID, &runCall{ev: ev, kind: callMCP}, ev.Permission())
	case UserCustomToolResultEvent:
		r.answer(ev.CustomToolUseID)
	case UserToolResultEvent:
		r.answer(ev.ToolUseID)
	case AgentToolResultEvent:
		r.answer(ev.ToolUseID)
	case UserToolConfirmationEvent:
		if c := r.calls[ev.ToolUseID]; c != nil {
			c.asked = false
			if ev.Result == ToolConfirmationAllow {
				c.allowed = true
			} else {
				c.answered = true // a denied call never runs
			}
		}
	case SessionStatusIdleEvent:
		_, r.idle = ev.StopReason.(SessionEndTurn)
		return
	case SessionThreadStatusTerminatedEvent:
		r.terminateThread(ev.SessionThreadID)
	}
	switch ev.(type) {
	case SessionEventStart, SessionEventDelta, SessionUsageEvent, SpanModelRequestEndEvent:
	default:
		r.idle = false
	}
}

func (r *sessionRun) add(id string, c *runCall) {
	if r.deadThreads[callThread(c.ev)] {
		return // a terminated thread's call is not run or awaited
	}
	if _, dup := r.calls[id]; !dup && id != "" {
		r.calls[id] = c
		r.order = append(r.order, id)
	}
}

// addPermissioned adds a built-in or MCP call by its permission: "deny"
// never runs; "ask" waits for a decision; "allow" runs (sandbox calls
// only, and only with a Sandbox function).
func (r *sessionRun) addPermissioned(id string, c *runCall, perm string) {
	switch perm {
	case PermissionDeny:
		return
	case PermissionAsk:
		c.asked = true
	default:
		c.allowed = true
	}
	r.add(id, c)
}

func (r *sessionRun) answer(callID string) {
	if c := r.calls[callID]; c != nil {
		c.answered = true
	}
}

// owesAnswers reports whether a call the runner owns waits for it.
func (r *sessionRun) owesAnswers() bool {
	for _, id := range r.order {
		c := r.calls[id]
		if !c.answered && (r.canDecide(c) || r.canRun(c)) {
			return true
		}
	}
	return false
}

func (r *sessionRun) canDecide(c *runCall) bool { return c.asked && !c.decided && r.p.Confirm != nil }

func (r *sessionRun) canRun(c *runCall) bool {
	if !c.allowed || c.started {
		return false
	}
	switch c.kind {
	case callCustom:
		return true
	case callSandbox:
		return r.p.Sandbox != nil
	}
	return false
}

// dispatch starts a worker for each call the runner owns that waits.
func (r *sessionRun) dispatch(ctx context.Context) {
	for _, id := range r.order {
		c := r.calls[id]
		switch {
		case c.answered:
		case r.canDecide(c):
			c.decided = true
			r.start(ctx, func() runDone { return r.decide(ctx, c) })
		case r.canRun(c):
			c.started = true
			cctx, cancel := context.WithCancelCause(ctx)
			c.cancel = func() { cancel(errThreadTerminated) }
			r.start(ctx, func() runDone { defer cancel(nil); return r.execute(cctx, c) })
		}
	}
}

func (r *sessionRun) start(ctx context.Context, work func() runDone) {
	r.running++
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		select {
		case r.sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		d := work()
		<-r.sem
		select {
		case r.done <- d:
		case <-ctx.Done():
		}
	}()
}

// execute runs a call and posts its result.
func (r *sessionRun) execute(ctx context.Context, c *runCall) runDone {
	tctx, cancel := context.WithTimeout(ctx, r.p.ToolTimeout)
	defer cancel()
	var out string
	var err error
	var result SessionEventParams
	step := SessionRunStep{Event: c.ev}
	switch ev := c.ev.(type) {
	case AgentCustomToolUseEvent:
		out, err = runTool(tctx, "", func(ctx context.Context) (string, error) { return r.p.Tools[ev.Name](ctx, ev) })
		out, step.IsError = toolOutput(out, err)
		result = UserCustomToolResultEventParams{CustomToolUseID: ev.ID, Content: []SessionContentBlock{TextBlock{Text: out}}, IsError: step.IsError}
		step.Kind = StepToolResult
	case AgentToolUseEvent:
		out, err = runTool(tctx, "", func(ctx context.Context) (string, error) { return r.p.Sandbox(ctx, ev) })
		out, step.IsError = toolOutput(out, err)
		result = UserToolResultEventParams{ToolUseID: ev.ID, Content: []SessionContentBlock{TextBlock{Text: out}}, IsError: step.IsError}
		step.Kind = StepSandboxResult
	}
	step.Output, step.Err = out, err
	if ctx.Err() != nil && context.Cause(ctx) == errThreadTerminated {
		return runDone{dropped: true} // its thread terminated: no result is posted
	}
	return runDone{step: step, err: r.post(ctx, c.ev, result)}
}

// decide asks Confirm and posts the decision.
func (r *sessionRun) decide(ctx context.Context, c *runCall) runDone {
	var d ToolDecision
	_, err := runTool(ctx, "Confirm", func(ctx context.Context) (string, error) {
		var err error
		d, err = r.p.Confirm(ctx, c.ev)
		return "", err
	})
	if err != nil {
		// A failed decision denies: an unexamined call must not run.
		d = ToolDecision{DenyMessage: "The program could not decide on this call: " + err.Error()}
	}
	ev := NewAllowToolEvent(c.ev.EventID())
	if !d.Allow {
		ev = NewDenyToolEvent(c.ev.EventID(), d.DenyMessage)
	}
	step := SessionRunStep{Kind: StepConfirmation, Event: c.ev, Decision: d, Err: err}
	return runDone{step: step, err: r.post(ctx, c.ev, ev)}
}

// toolOutput is the result text posted for a call's output and error.
func toolOutput(out string, err error) (string, bool) {
	if err != nil {
		return err.Error(), true
	}
	if out == "" {
		return emptyToolOutput, false
	}
	return out, false
}

// post sends ev (a call's answer), retrying failures with backoff for
// ResultTimeout. After a send whose outcome is unknown (ErrMaybeApplied:
// a dropped connection, a 5xx; the client does not resend it), and when
// an answer is refused after such a send, the answer is looked up among
// the stored events: the earlier attempt may have landed.
func (r *sessionRun) post(ctx context.Context, call SessionEvent, ev SessionEventParams) error {
	deadline := time.Now().Add(r.p.ResultTimeout)
	ambiguous := false
	for attempt := 1; ; attempt++ {
		_, err := r.events.Send(ctx, r.sessionID, SessionEventSendParams{Events: []SessionEventParams{ev}}, r.opts...)
		if err == nil {
			return nil
		}
		var apiErr *Error
		isAPI := errors.As(err, &apiErr)
		if ctx.Err() != nil {
			return err
		}
		if errors.Is(err, ErrMaybeApplied) && r.answerStored(ctx, call.EventID()) {
			return nil // the send whose answer was lost delivered it
		}
		if isAPI && isFinalStatus(apiErr.StatusCode) && apiErr.StatusCode >= 400 {
			if (ambiguous || apiErr.Attempts > 1) && r.answerStored(ctx, call.EventID()) {
				return nil
			}
			return fmt.Errorf("mms: posting the answer to %s: %w", call.EventID(), err)
		}
		ambiguous = true
		if time.Now().After(deadline) {
			return fmt.Errorf("mms: posting the answer to %s: gave up after %d attempts in %v: %w", call.EventID(), attempt, r.p.ResultTimeout, err)
		}
		select {
		case r.done <- runDone{step: SessionRunStep{Kind: StepRetry, Event: call, Err: err, Attempt: attempt}, progress: true}:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := sleepCtx(ctx, backoffDelay(attempt, resultRetryMin, resultRetryMax)); err != nil {
			return err
		}
	}
}

// answerStored reports whether an answer to the call is among the stored
// events.
func (r *sessionRun) answerStored(ctx context.Context, callID string) bool {
	p := SessionEventListParams{Limit: 100, Order: ListOrderDesc,
		Types: []string{"user.custom_tool_result", "user.tool_result", "user.tool_confirmation"}}
	for ev, err := range r.events.List(ctx, r.sessionID, p, r.opts...) {
		if err != nil {
			return false
		}
		switch ev := ev.(type) {
		case UserCustomToolResultEvent:
			if ev.CustomToolUseID == callID {
				return true
			}
		case UserToolResultEvent:
			if ev.ToolUseID == callID {
				return true
			}
		case UserToolConfirmationEvent:
			if ev.ToolUseID == callID {
				return true
			}
		}
	}
	return false
}

// isFinalStatus reports whether an *Error with this status is not worth
// repeating: below 500 (an "error" event has 200) other than 408, 409 and
// 429.
func isFinalStatus(s int) bool {
	return s < 500 && s != http.StatusRequestTimeout && s != http.StatusConflict && s != http.StatusTooManyRequests
}
