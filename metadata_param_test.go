package mms

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"
)

func TestMetadataRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   Metadata
		json string
	}{
		{"empty", Metadata{}, `{}`},
		{"user", Metadata{UserID: "13803d75-b4b5-4c3e-b2a2-6f21399b021b"}, `{"user_id":"13803d75-b4b5-4c3e-b2a2-6f21399b021b"}`},
		{"null user", Metadata{Explicit: map[string]json.RawMessage{"user_id": json.RawMessage("null")}}, `{"user_id":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := codec.Marshal(c.in)
			if err != nil {
				t.Fatal(err)
			}
			rcJSONEqual(t, got, []byte(c.json))
			var back Metadata
			if err := json.Unmarshal([]byte(c.json), &back); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.in, back); d != "" {
				t.Errorf("decode (-want +got):\n%s", d)
			}
		})
	}
	var m Metadata
	if err := json.Unmarshal([]byte(`{"user_id":7}`), &m); err == nil {
		t.Error("a numeric user_id decoded without error")
	}
}
