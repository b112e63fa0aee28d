package mms

import (
	"slices"
	"strings"
)

// Text returns the text of the message's text blocks, joined.
func (e AgentMessageEvent) Text() string {
	return joinText(e.Content, func(t TextBlock) string { return t.Text })
}

// SessionEventAccumulator folds the previews of a session stream (asked for
// with SessionEventStreamParams.EventDeltas) into the events they announce,
// so that a program can show an agent's text as it is written. Previews
// are best-effort and the final event, when it comes, replaces them:
//
//   - an event_start opens a pending [AgentMessageEvent] or
//     [AgentThinkingEvent] with the announced id;
//   - an event_delta appends its text to block index of the pending
//     message (index equal to the number of blocks opens a new block; a
//     delta without an index goes to the last block); a delta for an event
//     not pending (never started, already final, or discarded) or with an
//     index out of range is ignored;
//   - the final agent.message or agent.thinking replaces its preview;
//   - span.model_request_end discards the previews that never got their
//     final event (the request ended early).
//
// The zero value is ready to use. An accumulator is not safe for
// concurrent use.
//
//	var acc mms.SessionEventAccumulator
//	for ev, err := range client.Sessions.Events.Stream(ctx, id, mms.SessionEventStreamParams{
//		EventDeltas: []string{"agent.message"},
//	}) {
//		if err != nil {
//			return err
//		}
//		if msg, ok := acc.Add(ev).(mms.AgentMessageEvent); ok {
//			ui.Show(msg.ID, msg) // the text so far, then the final message
//		}
//	}
type SessionEventAccumulator struct {
	pending []*pendingEvent // in start order
}

// pendingEvent is an event announced by event_start whose final event has
// not arrived.
// The previews' event types, from the union's table (EventType is
// generated from it), so the wire names are written once.
var (
	typeAgentMessage  = AgentMessageEvent{}.EventType()
	typeAgentThinking = AgentThinkingEvent{}.EventType()
)

type pendingEvent struct {
	id, typ string
	blocks  []*strings.Builder
}

// Add folds ev in and returns what a display should show for it: for a
// preview, the pending event as far as it got (an AgentMessageEvent whose
// Content holds a [TextBlock] per block, or an AgentThinkingEvent), or nil
// when the preview was ignored; for any other event, ev itself (a final
// event replaces its preview).
func (a *SessionEventAccumulator) Add(ev SessionEvent) SessionEvent {
	switch ev := ev.(type) {
	case SessionEventStart:
		if ev.Event.Type != typeAgentMessage && ev.Event.Type != typeAgentThinking {
			return ev // a preview kind this SDK version cannot fold
		}
		if ev.Event.ID == "" || a.find(ev.Event.ID) >= 0 {
			return nil
		}
		p := &pendingEvent{id: ev.Event.ID, typ: ev.Event.Type}
		a.pending = append(a.pending, p)
		return p.event()
	case SessionEventDelta:
		i := a.find(ev.PendingEventID)
		if i < 0 {
			return nil
		}
		p := a.pending[i]
		d, ok := ev.Delta.(SessionContentDelta)
		if !ok {
			return nil
		}
		text, ok := d.Content.(TextBlock)
		if !ok || p.typ != typeAgentMessage || !p.appendText(d.Index, text.Text) {
			return nil
		}
		return p.event()
	case AgentMessageEvent, AgentThinkingEvent:
		if i := a.find(ev.EventID()); i >= 0 {
			a.pending = slices.Delete(a.pending, i, i+1)
		}
	case SpanModelRequestEndEvent:
		a.pending = a.pending[:0]
	}
	return ev
}

// Pending returns the events being produced, in the order they started,
// each as far as it got.
func (a *SessionEventAccumulator) Pending() []SessionEvent {
	out := make([]SessionEvent, 0, len(a.pending))
	for _, p := range a.pending {
		out = append(out, p.event())
	}
	return out
}

func (a *SessionEventAccumulator) find(id string) int {
	return slices.IndexFunc(a.pending, func(p *pendingEvent) bool { return p.id == id })
}

// appendText adds text to block index (nil: the last block); it reports
// false for an index out of range.
func (p *pendingEvent) appendText(index *int, text string) bool {
	i := len(p.blocks) - 1
	if index != nil {
		i = *index
	}
	switch {
	case i == len(p.blocks) || i < 0 && len(p.blocks) == 0:
		p.blocks = append(p.blocks, new(strings.Builder))
		i = len(p.blocks) - 1
	case i < 0 || i > len(p.blocks):
		return false
	}
	p.blocks[i].WriteString(text)
	return true
}

// event is the pending event as far as it got. Its text blocks share
// nothing that later deltas change.
func (p *pendingEvent) event() SessionEvent {
	if p.typ != typeAgentMessage {
		return AgentThinkingEvent{ID: p.id}
	}
	content := make([]SessionContentBlock, len(p.blocks))
	for i := range p.blocks {
		content[i] = TextBlock{Text: p.blocks[i].String()}
	}
	return AgentMessageEvent{ID: p.id, Content: content}
}
