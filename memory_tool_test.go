package mms_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"

	"github.com/stretchr/testify/require"
)

// TestMemoryCommandRoundTrip: every command decodes into its variant (an
// unknown one into UnknownMemoryCommand) and marshals back to the same
// JSON, members it does not model included.
func TestMemoryCommandRoundTrip(t *testing.T) {
	rng := [2]int{2, -1}
	tests := []struct {
		in   string
		want mms.MemoryCommand
	}{
		{`{"command":"view","path":"/memories"}`, mms.MemoryViewCommand{Path: "/memories"}},
		{`{"command":"view","path":"/memories/a.md","view_range":[2,-1]}`, mms.MemoryViewCommand{Path: "/memories/a.md", ViewRange: &rng}},
		{`{"command":"create","path":"/memories/a.md","file_text":"x\n"}`, mms.MemoryCreateCommand{Path: "/memories/a.md", FileText: "x\n"}},
		{`{"command":"str_replace","path":"/memories/a.md","old_str":"a","new_str":""}`, mms.MemoryStrReplaceCommand{Path: "/memories/a.md", OldStr: "a"}},
		{`{"command":"insert","path":"/memories/a.md","insert_line":0,"insert_text":"t"}`, mms.MemoryInsertCommand{Path: "/memories/a.md", InsertText: "t"}},
		{`{"command":"delete","path":"/memories/d"}`, mms.MemoryDeleteCommand{Path: "/memories/d"}},
		{`{"command":"rename","old_path":"/memories/a","new_path":"/memories/b","why":1}`,
			mms.MemoryRenameCommand{OldPath: "/memories/a", NewPath: "/memories/b", Extra: map[string]json.RawMessage{"why": json.RawMessage(`1`)}}},
		{`{"command":"chmod","path":"/memories/a"}`, mms.UnknownMemoryCommand{Type: "chmod", Raw: json.RawMessage(`{"command":"chmod","path":"/memories/a"}`)}},
	}
	for _, tt := range tests {
		got, err := mms.ParseMemoryCommand(json.RawMessage(tt.in))
		require.NoError(t, err, tt.in)
		if d := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, d)
		}
		out, err := json.Marshal(got)
		require.NoError(t, err)
		require.JSONEq(t, tt.in, string(out))
	}
	for _, bad := range []string{`{"path":"/memories"}`, `{"command":1}`, `[]`, `{"command":"view","path":3}`} {
		_, err := mms.ParseMemoryCommand(json.RawMessage(bad))
		require.Error(t, err, bad)
	}
}

// FuzzMemoryCommand: any input decodes or fails cleanly, and what decodes
// marshals to JSON that decodes to the same command.
func FuzzMemoryCommand(f *testing.F) {
	for _, s := range []string{`{"command":"view","path":"/memories","view_range":[1,2]}`,
		`{"command":"insert","path":"/m","insert_line":3,"insert_text":"x","z":null}`, `{"command":"q"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := mms.ParseMemoryCommand(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(c)
		require.NoError(t, err)
		again, err := mms.ParseMemoryCommand(out)
		require.NoError(t, err)
		out2, err := json.Marshal(again)
		require.NoError(t, err)
		require.Equal(t, string(out), string(out2))
	})
}
