package mms

import "errors"

// The runner's handling of terminated threads (R2): after
// session.thread_status_terminated names a thread, its tool calls are not
// run or awaited, a running one is cancelled, and no result is posted.

// errThreadTerminated is the cause a call's worker is cancelled with.
var errThreadTerminated = errors.New("mms: the call's session thread terminated")

// callThread is the thread a call came from; "" for the primary thread.
func callThread(ev SessionEvent) string {
	var th *string
	switch ev := ev.(type) {
	case AgentCustomToolUseEvent:
		th = ev.SessionThreadID
	case AgentToolUseEvent:
		th = ev.SessionThreadID
	case AgentMCPToolUseEvent:
		th = ev.SessionThreadID
	}
	if th == nil {
		return ""
	}
	return *th
}

// terminateThread drops the calls of thread id: none is awaited any more,
// and a running one is cancelled.
func (r *sessionRun) terminateThread(id string) {
	if id == "" {
		return
	}
	if r.deadThreads == nil {
		r.deadThreads = map[string]bool{}
	}
	r.deadThreads[id] = true
	for _, cid := range r.order {
		c := r.calls[cid]
		if callThread(c.ev) != id || c.answered {
			continue
		}
		c.answered = true
		if c.cancel != nil {
			c.cancel()
		}
	}
}
