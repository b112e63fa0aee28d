package transport

import (
	"encoding/json"
	"testing"

	"github.com/mms-sdk/mms-go/platform"

	"github.com/stretchr/testify/require"
)

func TestEditMembers(t *testing.T) {
	set := func(name, v string) platform.Edit { return platform.Edit{Name: name, Value: json.RawMessage(v)} }
	def := func(name, v string) platform.Edit {
		return platform.Edit{Name: name, Value: json.RawMessage(v), IfAbsent: true}
	}
	del := func(name string) platform.Edit { return platform.Edit{Name: name} }
	tests := []struct {
		name  string
		in    string
		edits []platform.Edit
		want  string
	}{
		{"delete", `{"model":"m","max_tokens":1,"stream":true}`, []platform.Edit{del("model"), del("stream")}, `{"max_tokens":1}`},
		{"replace in place", `{"a":1,"b":2}`, []platform.Edit{set("a", `[3]`)}, `{"a":[3],"b":2}`},
		{"add at the end", `{"a":1}`, []platform.Edit{set("z", `"v"`), set("y", `null`)}, `{"a":1,"z":"v","y":null}`},
		{"default absent", `{"a":1}`, []platform.Edit{def("v", `"x"`)}, `{"a":1,"v":"x"}`},
		{"default present", `{"v":"mine","a":1}`, []platform.Edit{def("v", `"x"`)}, `{"v":"mine","a":1}`},
		{"default after delete", `{"v":"mine"}`, []platform.Edit{del("v"), def("v", `"x"`)}, `{"v":"x"}`},
		{"default after set", `{}`, []platform.Edit{set("v", `1`), def("v", `2`)}, `{"v":1}`},
		{"added then deleted", `{"a":1}`, []platform.Edit{set("n", `1`), del("n")}, `{"a":1}`},
		{"delete absent", `{"a":1}`, []platform.Edit{del("zz")}, `{"a":1}`},
		{"escaped key", `{"a\"b":1}`, []platform.Edit{set("a\"b", `2`)}, `{"a\"b":2}`},
		{"empty object", `{}`, []platform.Edit{set("a", `1`)}, `{"a":1}`},
		{"delete all", `{"a":1}`, []platform.Edit{del("a")}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := editMembers([]byte(tt.in), tt.edits)
			require.NoError(t, err)
			if string(got) != tt.want || !json.Valid(got) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
