package mms_test

import (
	"context"
	"errors"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"

	"github.com/stretchr/testify/require"
)

type forecast struct {
	City    string   `json:"city"`
	Days    []day    `json:"days"`
	Summary *string  `json:"summary"`
	Alerts  []string `json:"alerts,omitempty"`
}

type day struct {
	Date string `json:"date" format:"date"`
	High int    `json:"high"`
	Sky  string `json:"sky" enum:"clear,cloudy,rain"`
}

// ParseOutput against the fake: a created and a streamed reply (through
// the accumulator) decode; a scripted reply that is not a forecast, and one
// cut by max_tokens, are *OutputErrors holding the text.
func TestParseOutputAgainstFake(t *testing.T) {
	client, srv := fakeclient.New(t)
	format, err := mms.OutputFormatFor[forecast]()
	require.NoError(t, err)
	params := mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 1024,
		Messages:     []mms.MessageParam{mms.UserText("Forecast for Paris")},
		OutputConfig: &mms.OutputConfig{Format: format},
	}
	ctx := context.Background()
	parse := func(stream bool, p mms.MessageCreateParams) (forecast, error) {
		if !stream {
			msg, err := client.Messages.Create(ctx, p)
			require.NoError(t, err)
			return mms.ParseOutput[forecast](msg)
		}
		var acc mms.MessageAccumulator
		for ev, err := range client.Messages.Stream(ctx, p) {
			if err == nil {
				err = acc.Add(ev)
			}
			require.NoError(t, err)
		}
		return mms.ParseOutput[forecast](acc.Message())
	}
	for _, stream := range []bool{false, true} {
		got, err := parse(stream, params)
		if err != nil || got.City == "" || got.Days == nil {
			t.Errorf("stream=%v: %+v, %v", stream, got, err)
		}

		srv.Script(mmstest.Turn{Text: `{"city":"Paris","days":[{"date":"2026-11-24","high":"warm","sky":"clear"}],"summary":null}`})
		_, err = parse(stream, params)
		var outErr *mms.OutputError
		if !errors.As(err, &outErr) || outErr.Text == "" {
			t.Errorf("stream=%v: mismatch err = %v", stream, err)
		}

		short := params
		short.MaxTokens = 3
		_, err = parse(stream, short)
		if !errors.Is(err, mms.ErrOutputTruncated) || !errors.As(err, &outErr) || outErr.StopReason != mms.StopReasonMaxTokens {
			t.Errorf("stream=%v: truncated err = %v", stream, err)
		}
	}
}
