package admin

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// fuzzUnion is the fuzz check of one union decoder: any input decodes or
// fails cleanly; an Unknown variant re-encodes to its input, a known one
// to JSON that decodes to the same encoding.
func fuzzUnion[T json.Marshaler](t *testing.T, decode func([]byte) (T, error), data []byte) {
	v, err := decode(data)
	if err != nil || !json.Valid(data) {
		return
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		t.Fatalf("decoded %q to a nil union value without an error", data)
	}
	enc, err := v.MarshalJSON()
	if strings.HasPrefix(rv.Type().Name(), "Unknown") {
		if err != nil || !bytes.Equal(enc, data) {
			t.Fatalf("unknown variant re-encodes %q, %v; want the input %q", enc, err, data)
		}
		return
	}
	if err != nil {
		t.Fatalf("%T from %q does not encode: %v", v, data, err)
	}
	again, err := decode(enc)
	if err != nil {
		t.Fatalf("%T re-encoded %q does not decode: %v", v, enc, err)
	}
	if enc2, err := again.MarshalJSON(); err != nil || !bytes.Equal(enc, enc2) {
		t.Fatalf("%T: %q then %q, %v", v, enc, enc2, err)
	}
}

// FuzzAdminUnions runs every union decoder of the package on each input;
// the first byte picks the union, the rest is the JSON.
func FuzzAdminUnions(f *testing.F) {
	decoders := []func(*testing.T, []byte){
		func(t *testing.T, d []byte) { fuzzUnion(t, keyPrincipalUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, keyScopeUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, dataStorageUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, externalKeyProviderUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, storageProviderUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, storageStatusUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, jwksUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, googleCMEKUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, googleStorageUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, rateLimitGroupUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, permissionResourceUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, spendScopeUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, spendActorUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, caseStatusUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, itemActorUnion.Decode, d) },
		func(t *testing.T, d []byte) { fuzzUnion(t, itemDetailsUnion.Decode, d) },
	}
	for i := range decoders {
		for _, s := range []string{`{"type":"user","id":"u"}`, `{"type":"workspace","workspace_id":"w"}`, `{"type":"aws","arn":"a"}`,
			`{"type":"x_future","a":[1,{"b":null}]}`, `{"type":null}`, `[]`, `null`} {
			f.Add(append([]byte{byte(i)}, s...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		decoders[int(data[0])%len(decoders)](t, data[1:])
	})
}
