package mms

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

func TestBetaManagedAgentsMatchesWire(t *testing.T) {
	if BetaManagedAgents != wire.BetaManagedAgents || !wire.IsKnownBeta(BetaManagedAgents) {
		t.Fatalf("BetaManagedAgents %q, wire %q", BetaManagedAgents, wire.BetaManagedAgents)
	}
}

// updateProbe holds Update fields the way update params do.
type updateProbe struct {
	Name  Update[string]       `json:"name,omitzero"`
	List  Update[[]string]     `json:"list,omitzero"`
	Loc   Update[UserLocation] `json:"loc,omitzero"`
	Patch MetadataPatch        `json:"metadata,omitzero"`
}

func TestUpdateEncoding(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   updateProbe
		want string
	}{
		{"absent fields are left out", updateProbe{}, `{}`},
		{"set", updateProbe{Name: Set("n"), List: Set([]string{"a"})}, `{"name":"n","list":["a"]}`},
		{"set to the zero value is sent", updateProbe{Name: Set(""), List: Set([]string{})}, `{"name":"","list":[]}`},
		{"clear is null", updateProbe{Name: Clear[string](), List: Clear[[]string]()}, `{"name":null,"list":null}`},
		{"set value in request form", updateProbe{Loc: Set(UserLocation{City: "Paris", Extra: map[string]json.RawMessage{"future": json.RawMessage("1")}})},
			`{"loc":{"type":"approximate","city":"Paris"}}`},
		{"metadata patch upserts and deletes", updateProbe{Patch: MetadataPatch{}.Set("k", "v").Delete("gone")},
			`{"metadata":{"gone":null,"k":"v"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for name, marshal := range map[string]func(any) ([]byte, error){
				"codec": codec.MarshalRequest, "encoding/json": json.Marshal,
			} {
				got, err := marshal(tt.in)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				requireJSONEqual(t, []byte(tt.want), got)
			}
		})
	}
	if _, err := json.Marshal(Update[string]{}); !errors.Is(err, errKeepUpdate) {
		t.Errorf("marshalling a keep Update alone: %v", err)
	}
}

func TestUpdateDecoding(t *testing.T) {
	var got updateProbe
	if err := json.Unmarshal([]byte(`{"name":null,"list":["a","b"],"metadata":{"x":null,"y":"1"}}`), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Name.IsClear() || !got.Loc.IsZero() {
		t.Errorf("name %+v loc %+v", got.Name, got.Loc)
	}
	if v, ok := got.List.Value(); !ok || !cmp.Equal(v, []string{"a", "b"}) {
		t.Errorf("list %v %v", v, ok)
	}
	if _, ok := got.Name.Value(); ok {
		t.Error("a cleared Update reports a value")
	}
	if diff := cmp.Diff(MetadataPatch{"x": nil, "y": Ptr("1")}, got.Patch); diff != "" {
		t.Errorf("patch (-want +got):\n%s", diff)
	}
}

func TestMetadataRules(t *testing.T) {
	pairs := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[strings.Repeat("k", i+1)] = "v"
		}
		return m
	}
	for _, tt := range []struct {
		name string
		m    map[string]string
		ok   bool
	}{
		{"16 pairs", pairs(16), true},
		{"17 pairs", pairs(17), false},
		{"key of 64", map[string]string{strings.Repeat("é", 64): ""}, true},
		{"key of 65", map[string]string{strings.Repeat("é", 65): ""}, false},
		{"empty key", map[string]string{"": "v"}, false},
		{"value of 512", map[string]string{"k": strings.Repeat("é", 512)}, true},
		{"value of 513", map[string]string{"k": strings.Repeat("é", 513)}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			patch := MetadataPatch{}
			for k, v := range tt.m {
				patch.Set(k, v)
			}
			for name, err := range map[string]error{
				"create": validateMetadata("metadata", tt.m), "patch": patch.validate("metadata"),
			} {
				var ve *ValidationError
				if tt.ok != (err == nil) || err != nil && (!errors.As(err, &ve) || !strings.HasPrefix(ve.Field, "metadata")) {
					t.Errorf("%s: %v", name, err)
				}
			}
		})
	}
	// A deletion has no value to check.
	if err := (MetadataPatch{"k": nil}).validate("metadata"); err != nil {
		t.Error(err)
	}
}
