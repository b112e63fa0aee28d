package mms_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
)

func start(typ, id string) mms.SessionEvent {
	return mms.SessionEventStart{Event: mms.SessionEventRef{Type: typ, ID: id}}
}

func delta(id string, index *int, text string) mms.SessionEvent {
	return mms.SessionEventDelta{PendingEventID: id, Delta: mms.SessionContentDelta{Index: index, Content: mms.TextBlock{Text: text}}}
}

func at(i int) *int { return &i }

// shown is what Add returned, as text: "id:text|text" for messages,
// "thinking id", "-" for nil, or the event type.
func shown(ev mms.SessionEvent) string {
	switch ev := ev.(type) {
	case nil:
		return "-"
	case mms.AgentMessageEvent:
		s := ev.ID + ":"
		for i, b := range ev.Content {
			if i > 0 {
				s += "|"
			}
			s += b.(mms.TextBlock).Text
		}
		return s
	case mms.AgentThinkingEvent:
		return "thinking " + ev.ID
	}
	return ev.EventType()
}

func TestSessionEventAccumulator(t *testing.T) {
	final := mms.AgentMessageEvent{ID: "m1", Content: []mms.SessionContentBlock{mms.TextBlock{Text: "Hello world"}}}
	tests := []struct {
		name    string
		events  []mms.SessionEvent
		want    []string
		pending []string
	}{
		{"deltas build the text, the final replaces it",
			[]mms.SessionEvent{start("agent.message", "m1"), delta("m1", at(0), "Hel"), delta("m1", at(0), "lo"), final, delta("m1", at(0), "late")},
			[]string{"m1:", "m1:Hel", "m1:Hello", "m1:Hello world", "-"}, nil},
		{"index == len opens a block, beyond is ignored, none goes to the last",
			[]mms.SessionEvent{start("agent.message", "m1"), delta("m1", at(0), "a"), delta("m1", at(1), "b"), delta("m1", at(3), "x"), delta("m1", nil, "c"), delta("m1", at(-1), "y")},
			[]string{"m1:", "m1:a", "m1:a|b", "-", "m1:a|bc", "-"}, []string{"m1:a|bc"}},
		{"a delta without an index opens the first block",
			[]mms.SessionEvent{start("agent.message", "m1"), delta("m1", nil, "a")},
			[]string{"m1:", "m1:a"}, []string{"m1:a"}},
		{"deltas of unknown events are ignored",
			[]mms.SessionEvent{delta("m9", at(0), "a")}, []string{"-"}, nil},
		{"thinking has only a start",
			[]mms.SessionEvent{start("agent.thinking", "t1"), delta("t1", at(0), "x"), mms.AgentThinkingEvent{ID: "t1"}},
			[]string{"thinking t1", "-", "thinking t1"}, nil},
		{"a request end discards orphans",
			[]mms.SessionEvent{start("agent.message", "m1"), start("agent.thinking", "t1"), delta("m1", at(0), "a"), mms.SpanModelRequestEndEvent{ID: "s"}, delta("m1", at(0), "b")},
			[]string{"m1:", "thinking t1", "m1:a", "span.model_request_end", "-"}, nil},
		{"a repeated start and an unknown preview kind",
			[]mms.SessionEvent{start("agent.message", "m1"), start("agent.message", "m1"), start("agent.plan", "p1")},
			[]string{"m1:", "-", "event_start"}, []string{"m1:"}},
		{"other events pass through",
			[]mms.SessionEvent{mms.SessionStatusRunningEvent{ID: "r"}}, []string{"session.status_running"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acc mms.SessionEventAccumulator
			var got []string
			for _, ev := range tt.events {
				got = append(got, shown(acc.Add(ev)))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("shown (-want +got):\n%s", diff)
			}
			var pending []string
			for _, ev := range acc.Pending() {
				pending = append(pending, shown(ev))
			}
			if diff := cmp.Diff(tt.pending, pending); diff != "" {
				t.Errorf("pending (-want +got):\n%s", diff)
			}
		})
	}
}

// A pending message handed out earlier does not change with later deltas.
func TestSessionEventAccumulatorSnapshots(t *testing.T) {
	var acc mms.SessionEventAccumulator
	acc.Add(start("agent.message", "m1"))
	first := acc.Add(delta("m1", at(0), "a"))
	acc.Add(delta("m1", at(0), "bc"))
	if got := shown(first); got != "m1:a" {
		t.Errorf("the earlier snapshot became %q", got)
	}
}
