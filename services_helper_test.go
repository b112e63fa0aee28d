package mms_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

// Helpers shared by the service tests (files, models, batches, skills).

// jsonDiff compares two JSON documents as values and returns cmp.Diff of
// them (-a +b), "" when equal.
func jsonDiff(t *testing.T, a, b []byte) string {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	return cmp.Diff(va, vb)
}

// roundTrip decodes in into T, encodes it again and compares both as JSON
// values.
func roundTrip[T any](t *testing.T, in []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	require.NoError(t, err)
	if diff := jsonDiff(t, in, out); diff != "" {
		t.Errorf("round trip (-in +out):\n%s", diff)
	}
	return v
}
