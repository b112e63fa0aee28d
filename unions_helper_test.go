package mms

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// rcCase is one row of a round-trip table: in encodes to json, and json
// decodes back to in.
type rcCase[T any] struct {
	name string
	in   T
	json string
}

// rcRoundTrip runs each case as a subtest (see rcCheckRoundTrip).
func rcRoundTrip[T any](t *testing.T, cases []rcCase[T], decode func([]byte) (T, error)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rcCheckRoundTrip(t, c.in, c.json, c.in, decode)
		})
	}
}

// rcCheckRoundTrip checks that in encodes to js, that js decodes with decode
// to want, and that want encodes to js again.
func rcCheckRoundTrip[T any](t *testing.T, in T, js string, want T, decode func([]byte) (T, error)) {
	t.Helper()
	got, err := codec.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	rcJSONEqual(t, got, []byte(js))
	back, err := decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, back); d != "" {
		t.Errorf("decode (-want +got):\n%s", d)
	}
	again, err := codec.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	rcJSONEqual(t, again, []byte(js))
}

// rcUnmarshal decodes data into a new T with json.Unmarshal.
func rcUnmarshal[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// rcWantDecodeErrors fails t for each input in bad that decode accepts.
func rcWantDecodeErrors[T any](t *testing.T, decode func([]byte) (T, error), bad ...string) {
	t.Helper()
	for _, b := range bad {
		if v, err := decode([]byte(b)); err == nil {
			t.Errorf("decoding %s = %#v, want an error", b, v)
		}
	}
}

// rcFuzzUnion checks one fuzz input of the decoder of union U: nothing
// panics, check runs on a decoded non-nil value, an unknown variant K keeps
// the input byte for byte (its MarshalJSON writes Raw), and any other value
// encodes stably.
func rcFuzzUnion[U any, K json.Marshaler](t *testing.T, data []byte, decode func([]byte) (U, error), check func(U)) {
	t.Helper()
	v, err := decode(data)
	if err != nil || any(v) == nil {
		return
	}
	check(v)
	if u, ok := any(v).(K); ok {
		if raw, _ := u.MarshalJSON(); string(raw) != string(data) {
			t.Fatalf("unknown raw %q, input %q", raw, data)
		}
		return
	}
	rcStableEncoding(t, v, decode)
}

// rcWantBetas fails t unless got is want and every entry is a known beta.
func rcWantBetas(t *testing.T, want, got []string) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("betas (-want +got):\n%s", d)
	}
	for _, b := range got {
		if !wire.IsKnownBeta(b) {
			t.Errorf("unknown beta %q", b)
		}
	}
}
