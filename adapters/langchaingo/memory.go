package langchaingo

import (
	"bytes"
	"encoding/json"
	"sync"

	mms "github.com/mms-sdk/mms-go"
	"github.com/tmc/langchaingo/llms"
)

// replyMemory keeps the content of the last tool-calling replies, keyed by
// their tool-call ids, so that an assistant turn rebuilt from tool calls
// alone (as langchaingo's agents do) goes back with its thinking blocks.
type replyMemory struct {
	max   int
	mu    sync.Mutex
	order []*rememberedReply // oldest first
	byID  map[string]*rememberedReply
}

type rememberedReply struct {
	content mms.ContentBlocks
	uses    []mms.ToolUseBlock
}

func newReplyMemory(n int) *replyMemory {
	return &replyMemory{max: n, byID: map[string]*rememberedReply{}}
}

// remember keeps msg when it calls tools.
func (m *replyMemory) remember(msg *mms.Message) {
	if m.max <= 0 {
		return
	}
	uses := msg.ToolUses()
	if len(uses) == 0 {
		return
	}
	r := &rememberedReply{content: msg.ToParam().Content, uses: uses}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.order = append(m.order, r)
	for _, u := range uses {
		m.byID[u.ID] = r
	}
	for len(m.order) > m.max {
		old := m.order[0]
		m.order[0] = nil
		m.order = m.order[1:]
		for _, u := range old.uses {
			if m.byID[u.ID] == old {
				delete(m.byID, u.ID)
			}
		}
	}
}

// recall returns the content of the remembered reply whose tool calls are
// exactly calls (ids, names and inputs, in order).
func (m *replyMemory) recall(calls []llms.ToolCall) (mms.ContentBlocks, bool) {
	if m.max <= 0 || len(calls) == 0 {
		return nil, false
	}
	m.mu.Lock()
	r := m.byID[calls[0].ID]
	m.mu.Unlock()
	if r == nil || len(r.uses) != len(calls) {
		return nil, false
	}
	for i, c := range calls {
		u := r.uses[i]
		if c.FunctionCall == nil || c.ID != u.ID || c.FunctionCall.Name != u.Name || !sameJSON(c.FunctionCall.Arguments, u.Input) {
			return nil, false
		}
	}
	return append(mms.ContentBlocks(nil), r.content...), true
}

// sameJSON reports whether args and input are the same JSON text, ignoring
// insignificant white space.
func sameJSON(args string, input json.RawMessage) bool {
	var a, b bytes.Buffer
	if args == "" {
		args = "{}"
	}
	if json.Compact(&a, []byte(args)) != nil || json.Compact(&b, input) != nil {
		return false
	}
	return bytes.Equal(a.Bytes(), b.Bytes())
}
