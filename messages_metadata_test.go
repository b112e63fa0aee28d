package mms

import (
	"encoding/json"
	"testing"
)

func TestMetadataRoundTrip(t *testing.T) {
	rcRoundTrip(t, []rcCase[MessageMetadata]{
		{"empty", MessageMetadata{}, `{}`},
		{"user", MessageMetadata{UserID: "13803d75-b4b5-4c3e-b2a2-6f21399b021b"}, `{"user_id":"13803d75-b4b5-4c3e-b2a2-6f21399b021b"}`},
		{"null user", MessageMetadata{Extra: map[string]json.RawMessage{"user_id": json.RawMessage("null")}}, `{"user_id":null}`},
	}, rcUnmarshal[MessageMetadata])
	var m Metadata
	if err := json.Unmarshal([]byte(`{"user_id":7}`), &m); err == nil {
		t.Error("a numeric user_id decoded without error")
	}
}
