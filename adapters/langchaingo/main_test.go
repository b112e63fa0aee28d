package langchaingo

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testModel = "mms-large-1"

// newLLM returns an LLM wired to a fresh fake.
func newLLM(t *testing.T, opts ...Option) (*LLM, *mmstest.Server) {
	t.Helper()
	client, srv := fakeclient.New(t)
	llm, err := New(client, append([]Option{WithModel(testModel)}, opts...)...)
	require.NoError(t, err)
	return llm, srv
}

// wireRequest is the part of a Messages request body the tests look at.
type wireRequest struct {
	Model     string            `json:"model"`
	MaxTokens int               `json:"max_tokens"`
	Stream    bool              `json:"stream"`
	System    json.RawMessage   `json:"system"`
	Thinking  json.RawMessage   `json:"thinking"`
	Tools     []json.RawMessage `json:"tools"`
	Messages  []struct {
		Role    string           `json:"role"`
		Content []map[string]any `json:"content"`
	} `json:"messages"`
}

// messageRequests decodes the POST /v1/messages bodies the fake received.
func messageRequests(t *testing.T, srv *mmstest.Server) []wireRequest {
	t.Helper()
	var out []wireRequest
	for _, r := range srv.Requests() {
		if r.Path != "/v1/messages" {
			continue
		}
		var w wireRequest
		require.NoError(t, json.Unmarshal(r.Body, &w), "%s", r.Body)
		out = append(out, w)
	}
	return out
}

// requestIDs returns the request ids the fake answered Messages requests with.
func requestIDs(srv *mmstest.Server) []string {
	var ids []string
	for _, r := range srv.Requests() {
		if r.Path == "/v1/messages" {
			ids = append(ids, r.RequestID)
		}
	}
	return ids
}
