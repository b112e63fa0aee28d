package mms_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"

	"github.com/stretchr/testify/require"
)

func newMemoryDir(t *testing.T, limits mms.MemoryDirLimits) (*mms.MemoryDir, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mem")
	m, err := mms.NewMemoryDir(dir, limits)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return m, dir
}

// do runs one command given as JSON, as the model sends it.
func do(t *testing.T, m *mms.MemoryDir, input string) (string, error) {
	t.Helper()
	cmd, err := mms.ParseMemoryCommand(json.RawMessage(input))
	require.NoError(t, err, input)
	return m.Do(context.Background(), cmd)
}

// TestMemoryDirCommands: each command on a real directory, in the order a
// model would use them.
func TestMemoryDirCommands(t *testing.T) {
	m, dir := newMemoryDir(t, mms.MemoryDirLimits{})
	steps := []struct {
		input   string
		want    string // in the result
		wantErr string // in the error
	}{
		{`{"command":"view","path":"/memories"}`, "dir\t/memories/\n", ""},
		{`{"command":"create","path":"/memories/notes/a.md","file_text":"one\ntwo\nthree\n"}`, "File created successfully at: /memories/notes/a.md", ""},
		{`{"command":"view","path":"/memories/notes/a.md"}`, "     1\tone\n     2\ttwo\n     3\tthree\n", ""},
		{`{"command":"view","path":"/memories/notes/a.md","view_range":[2,-1]}`, "     2\ttwo\n     3\tthree\n", ""},
		{`{"command":"view","path":"/memories/notes/a.md","view_range":[2,2]}`, "     2\ttwo\n", ""},
		{`{"command":"view","path":"/memories/notes/a.md","view_range":[0,2]}`, "", "lines run from 1 to 3"},
		{`{"command":"view","path":"/memories/notes/a.md","view_range":[2,4]}`, "", "lines run from 1 to 3"},
		{`{"command":"view","path":"/memories/notes/a.md","view_range":[3,2]}`, "", "lines run from 1 to 3"},
		{`{"command":"view","path":"/memories/","view_range":[1,1]}`, "", "is a directory"},
		{`{"command":"str_replace","path":"/memories/notes/a.md","old_str":"two","new_str":"2"}`, "has been edited", ""},
		{`{"command":"str_replace","path":"/memories/notes/a.md","old_str":"two","new_str":"2"}`, "", "not found"},
		{`{"command":"create","path":"/memories/b.md","file_text":"x x\n"}`, "created", ""},
		{`{"command":"str_replace","path":"/memories/b.md","old_str":"x","new_str":"y"}`, "", "found 2 times"},
		{`{"command":"str_replace","path":"/memories/b.md","old_str":"","new_str":"y"}`, "", "old_str: must not be empty"},
		{`{"command":"insert","path":"/memories/notes/a.md","insert_line":0,"insert_text":"zero"}`, "after line 0", ""},
		{`{"command":"insert","path":"/memories/notes/a.md","insert_line":4,"insert_text":"four\n"}`, "after line 4", ""},
		{`{"command":"insert","path":"/memories/notes/a.md","insert_line":6,"insert_text":"x"}`, "", "must be from 0 to 5"},
		{`{"command":"insert","path":"/memories/notes/a.md","insert_line":-1,"insert_text":"x"}`, "", "must be from 0 to 5"},
		{`{"command":"view","path":"/memories/notes/a.md"}`, "     1\tzero\n     2\tone\n     3\t2\n     4\tthree\n     5\tfour\n", ""},
		{`{"command":"view","path":"/memories"}`, "/memories/notes/a.md\n", ""},
		{`{"command":"rename","old_path":"/memories/notes","new_path":"/memories/archive/notes"}`, "Renamed /memories/notes to /memories/archive/notes", ""},
		{`{"command":"rename","old_path":"/memories/b.md","new_path":"/memories/archive/notes/a.md"}`, "", "already exists"},
		{`{"command":"rename","old_path":"/memories/archive","new_path":"/memories/archive/x"}`, "", "into itself"},
		{`{"command":"rename","old_path":"/memories/gone","new_path":"/memories/x"}`, "", "no such file"},
		{`{"command":"view","path":"/memories/notes/a.md"}`, "", "no such file"},
		{`{"command":"delete","path":"/memories/archive"}`, "Deleted /memories/archive", ""},
		{`{"command":"delete","path":"/memories/archive"}`, "", "no such file"},
		{`{"command":"delete","path":"/memories"}`, "", "cannot be changed"},
		{`{"command":"create","path":"/memories","file_text":""}`, "", "cannot be changed"},
		{`{"command":"chmod","path":"/memories/b.md"}`, "", `unknown memory command "chmod"`},
	}
	for i, s := range steps {
		got, err := do(t, m, s.input)
		if s.wantErr != "" {
			require.ErrorContains(t, err, s.wantErr, "step %d: %s", i, s.input)
			require.NotContains(t, err.Error(), dir, "step %d: an error shows the directory's place", i)
			continue
		}
		require.NoError(t, err, "step %d: %s", i, s.input)
		require.Contains(t, got, s.want, "step %d: %s", i, s.input)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only b.md is left, no temporary file")
	require.Equal(t, "b.md", entries[0].Name())
}

// TestMemoryDirHostilePaths: paths that leave /memories, or the directory,
// are refused, and nothing outside the directory is read or changed.
func TestMemoryDirHostilePaths(t *testing.T) {
	m, dir := newMemoryDir(t, mms.MemoryDirLimits{})
	outside := filepath.Join(filepath.Dir(dir), "outside")
	require.NoError(t, os.MkdirAll(outside, 0o700))
	secret := filepath.Join(outside, "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("keep\n"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "file-link")))

	paths := map[string]string{
		"/memories/../outside/secret.txt": `".." segment`,
		"/memories/a/../../x":             `".." segment`,
		"/memories/./a":                   `".." segment`,
		"/memories//a":                    `".." segment`,
		"/etc/passwd":                     "must start with /memories",
		"memories/a":                      "must start with /memories",
		"/memoriesX/a":                    "must start with /memories",
		"/Memories/a":                     "must start with /memories",
		`/memories/a\..\..\x`:             "backslash",
		"/memories/a\x00b":                "control character",
		"/memories/a\nb":                  "control character",
		"/memories/link/secret.txt":       "symbolic link",
		"/memories/file-link":             "symbolic link",
		"/memories/.memtmp-0011":          "reserved",
		longPath(1025):                    "over 1024 bytes",
	}
	for p, want := range paths {
		q, _ := json.Marshal(p)
		for _, input := range []string{
			`{"command":"view","path":` + string(q) + `}`,
			`{"command":"create","path":` + string(q) + `,"file_text":"pwned"}`,
			`{"command":"str_replace","path":` + string(q) + `,"old_str":"keep","new_str":"pwned"}`,
			`{"command":"insert","path":` + string(q) + `,"insert_line":0,"insert_text":"pwned"}`,
			`{"command":"delete","path":` + string(q) + `}`,
			`{"command":"rename","old_path":` + string(q) + `,"new_path":"/memories/stolen"}`,
			`{"command":"rename","old_path":"/memories/x","new_path":` + string(q) + `}`,
		} {
			_, err := do(t, m, input)
			require.ErrorContains(t, err, want, input)
		}
	}
	got, err := os.ReadFile(secret)
	require.NoError(t, err)
	require.Equal(t, "keep\n", string(got))
	_, err = os.Lstat(filepath.Join(dir, "link"))
	require.NoError(t, err, "the link itself is left alone")
	// The bound on the path's length, from the other side: 1,024 bytes.
	_, err = do(t, m, `{"command":"create","path":"`+longPath(1024)+`","file_text":"x"}`)
	require.NoError(t, err)
}

// longPath is a memory path of n bytes (n > 1,014) in segments a file
// system takes.
func longPath(n int) string {
	p := "/memories" + strings.Repeat("/"+strings.Repeat("a", 200), 5)
	return p + "/" + strings.Repeat("b", n-len(p)-1)
}

// TestMemoryDirBounds: a file at its bound is written, one byte more is
// refused; the directory's total likewise; nothing is half-written.
func TestMemoryDirBounds(t *testing.T) {
	m, dir := newMemoryDir(t, mms.MemoryDirLimits{MaxFileBytes: 10, MaxTotalBytes: 15})
	create := func(p string, n int) error {
		_, err := do(t, m, `{"command":"create","path":"/memories/`+p+`","file_text":"`+strings.Repeat("x", n)+`"}`)
		return err
	}
	require.NoError(t, create("a", 10))
	require.ErrorContains(t, create("b", 11), "over the 10-byte bound of a file")
	require.NoError(t, create("b", 5))
	require.ErrorContains(t, create("c", 1), "over its 15-byte bound")
	require.NoError(t, create("a", 9), "replacing a file counts its old size out")
	require.NoError(t, create("c", 1))
	_, err := do(t, m, `{"command":"insert","path":"/memories/c","insert_line":1,"insert_text":"yyyyyyyyy"}`)
	require.ErrorContains(t, err, "bound")
	got, err := os.ReadFile(filepath.Join(dir, "c"))
	require.NoError(t, err)
	require.Equal(t, "x", string(got), "a refused edit leaves the file as it was")
	// A file put there by someone else, over the bound, is not read whole.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big"), []byte(strings.Repeat("z", 11)), 0o600))
	_, err = do(t, m, `{"command":"view","path":"/memories/big"}`)
	require.ErrorContains(t, err, "over 10 bytes")

	_, err = mms.NewMemoryDir(t.TempDir(), mms.MemoryDirLimits{MaxFileBytes: -1})
	require.ErrorContains(t, err, "must not be negative")
}

// TestMemoryDirInToolRunner: the runner sends the memory tool as a
// built-in tool (memory_20250818, not a custom tool) and answers its calls
// on the directory.
func TestMemoryDirInToolRunner(t *testing.T) {
	m, dir := newMemoryDir(t, mms.MemoryDirLimits{})
	client, srv := fakeclient.New(t)
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "memory", Input: `{"command":"create","path":"/memories/todo.md","file_text":"buy milk\n"}`}}},
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "memory", Input: `{"command":"view","path":"/memories/../x"}`}}},
		mmstest.Turn{Text: "noted"},
	)
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 100,
			Messages: []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: "remember to buy milk"})}},
		Tools: []mms.RunnableTool{m},
	})
	msg, err := runner.Run(context.Background())
	require.NoError(t, err)
	require.Equal(t, "noted", msg.Content[0].(mms.TextBlock).Text)
	got, err := os.ReadFile(filepath.Join(dir, "todo.md"))
	require.NoError(t, err)
	require.Equal(t, "buy milk\n", string(got))

	var bodies []string
	for _, r := range srv.Requests() {
		if r.Path == "/v1/messages" {
			bodies = append(bodies, string(r.Body))
		}
	}
	require.Len(t, bodies, 3)
	require.Contains(t, bodies[0], `"tools":[{"type":"memory_20250818","name":"memory"}]`)
	require.Contains(t, bodies[1], "File created successfully at: /memories/todo.md")
	require.Contains(t, bodies[2], `"is_error":true`)
	require.Contains(t, bodies[2], `\"..\" segment`)

	// A memory tool beside a custom tool of the same name is refused.
	clash := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 100,
			Messages: []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: "x"})}},
		Tools: []mms.RunnableTool{m, mms.NewTool("memory", "d", func(context.Context, struct{}) (string, error) { return "", nil })},
	})
	_, err = clash.Run(context.Background())
	require.ErrorContains(t, err, `the name "memory" is already used`)
}
