package eino_test

import (
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/adapters/eino"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testModel = "mms-large-1"

// newModel is a chat model against a fresh fake.
func newModel(t *testing.T, opts ...mmstest.Option) (*eino.ChatModel, *mmstest.Server) {
	t.Helper()
	client, srv := fakeclient.New(t, opts...)
	cm, err := eino.NewChatModel(client, mms.MessageCreateParams{Model: testModel, MaxTokens: 2048})
	require.NoError(t, err)
	return cm, srv
}

// sent decodes the bodies of the Messages requests the fake received.
func sent(t *testing.T, srv *mmstest.Server) []mms.MessageCreateParams {
	t.Helper()
	var out []mms.MessageCreateParams
	for _, r := range srv.Requests() {
		if r.Path != "/v1/messages" {
			continue
		}
		var p mms.MessageCreateParams
		require.NoError(t, json.Unmarshal(r.Body, &p), "%s", r.Body)
		out = append(out, p)
	}
	return out
}

// drain reads a stream to its end, returning the chunks and the error
// that ended it (nil at io.EOF).
func drain(sr *schema.StreamReader[*schema.Message]) ([]*schema.Message, error) {
	defer sr.Close()
	var chunks []*schema.Message
	for {
		m, err := sr.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return chunks, nil
			}
			return chunks, err
		}
		chunks = append(chunks, m)
	}
}
