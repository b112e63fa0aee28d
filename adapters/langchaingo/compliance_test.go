package langchaingo

import (
	"testing"

	"github.com/tmc/langchaingo/llms/compliance"

	"github.com/mms-sdk/mms-go/mmstest"
)

// langchaingo's own provider compliance suite, against the fake. The fake
// echoes rather than answers, so the answers the suite checks for are
// scripted; stop sequences are the fake's own (it cuts the text at the
// match).
func TestCompliance(t *testing.T) {
	llm, srv := newLLM(t)
	srv.Script(
		mmstest.Turn{Text: "Hello, World!"},                        // BasicGeneration
		mmstest.Turn{Text: "Your name is Alice."},                  // MultiMessage
		mmstest.Turn{Text: "42"},                                   // Temperature 0
		mmstest.Turn{Text: "42"},                                   // Temperature 1
		mmstest.Turn{Text: "1, 2, 3"},                              // MaxTokens
		mmstest.Turn{Text: "Monday, Tuesday, Wednesday, Thursday"}, // StopSequences
	)
	compliance.NewSuite("mms", llm).Run(t)

	reqs := messageRequests(t, srv)
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	// The suite's "user"/"assistant" roles map to the service's.
	if m := reqs[1].Messages; len(m) != 3 || m[0].Role != "user" || m[1].Role != "assistant" || m[2].Role != "user" {
		t.Errorf("MultiMessage sent %+v", m)
	}
}
