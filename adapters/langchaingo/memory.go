package langchaingo

import (
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
// calls: the same ids and names, in order. Inputs are not compared:
// langchaingo's OpenAIFunctionsAgent puts the tool's extracted string
// input where the arguments were, and a tool_use id names one call of the
// model, whose input the reply holds.
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
		if c.FunctionCall == nil || c.ID != r.uses[i].ID || c.FunctionCall.Name != r.uses[i].Name {
			return nil, false
		}
	}
	return append(mms.ContentBlocks(nil), r.content...), true
}
