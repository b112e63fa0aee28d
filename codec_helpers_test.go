package mms

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
	rcJSONEqual(t, got, []byte(js))
	back, err := decode([]byte(js))
	require.NoError(t, err)
	if d := cmp.Diff(want, back); d != "" {
		t.Errorf("decode (-want +got):\n%s", d)
	}
	again, err := codec.Marshal(back)
	require.NoError(t, err)
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

// requestFormOf is the tests' own model of the request form, written
// independently of the encoder: a deep copy of v without the unknown
// members of every Extra (the remembered explicit zeros of modelled,
// optional, request fields stay while their field is zero) and with every
// field tagged `mms:"response"` zeroed. Unknown variants stay as they are.
func requestFormOf[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	out := reflect.New(rv.Type()).Elem()
	out.Set(requestValue(rv))
	return out.Interface().(T)
}

func requestValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(requestValue(v.Elem()))
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(requestValue(v.Elem()))
		return p
	case reflect.Slice:
		if v.IsNil() || v.Type().Elem().Kind() == reflect.Uint8 {
			return v
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			s.Index(i).Set(requestValue(v.Index(i)))
		}
		return s
	case reflect.Struct:
		if strings.HasPrefix(v.Type().Name(), "Unknown") {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			switch {
			case f.Tag.Get("mms") == "response":
				out.Field(i).SetZero()
			case f.Name == "Extra" && f.Tag.Get("json") == "-":
				out.Field(i).Set(reflect.ValueOf(requestExtraOf(out, v.Field(i).Interface().(map[string]json.RawMessage))))
			default:
				out.Field(i).Set(requestValue(v.Field(i)))
			}
		}
		return out
	}
	return v
}

// requestExtraOf keeps the entries of extra that name an optional request
// field of the struct s which is still zero.
func requestExtraOf(s reflect.Value, extra map[string]json.RawMessage) map[string]json.RawMessage {
	var out map[string]json.RawMessage
	t := s.Type()
	for k, raw := range extra {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != k || f.Tag.Get("mms") == "response" || !strings.Contains(opts, "omit") || !s.Field(i).IsZero() {
				continue
			}
			if out == nil {
				out = make(map[string]json.RawMessage)
			}
			out[k] = raw
		}
	}
	return out
}

// readGolden reads testdata/golden/<dir>/<name>.
func readGolden(t testing.TB, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "golden", dir, name))
	require.NoError(t, err)
	return data
}

// roundTrip decodes in into a new T, checks which union values fell back
// to Unknown, re-encodes it losslessly, and checks the client's decoder
// agrees.
func roundTrip[T any](t *testing.T, in []byte, unknown []string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(unknown, findUnknown("", reflect.ValueOf(v))); diff != "" {
		t.Errorf("unknown variants (-want +got):\n%s", diff)
	}
	out, err := json.Marshal(v)
	require.NoError(t, err)
	requireJSONEqual(t, in, out)
	var w T
	if err := decodeInto(in, &w); err != nil || !cmp.Equal(v, w) {
		t.Errorf("decodeInto: %v, differs: %s", err, cmp.Diff(v, w))
	}
	return v
}
