package mms

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// TestRecordedRequestConfig decodes the request-configuration members of
// every recorded request body (tools, tool_choice, thinking, output_config,
// metadata, context_management, mcp_servers), requires every union value to
// be a known variant, and requires the re-encoding to be the same JSON.
// The recordings live beside the repository in ../shared/recorded.
func TestRecordedRequestConfig(t *testing.T) {
	root := filepath.Join("..", "shared", "recorded")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("../shared/recorded is absent (%v): the recorded request bodies cannot be checked", err)
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".request.json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded request bodies found")
	}
	checked := map[string]int{}
	for _, f := range files {
		name, _ := filepath.Rel(root, f)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var body map[string]json.RawMessage
			if err := json.Unmarshal(data, &body); err != nil {
				t.Fatal(err)
			}
			for member, raw := range body {
				var v any
				switch member {
				case "tools":
					var ts Tools
					if err := json.Unmarshal(raw, &ts); err != nil {
						t.Fatalf("tools: %v", err)
					}
					for i, tool := range ts {
						if u, ok := tool.(UnknownTool); ok {
							t.Errorf("tools[%d] decoded as unknown type %q", i, u.Type)
						}
						if err := tool.validate(fmt.Sprintf("tools[%d]", i)); err != nil {
							t.Errorf("recorded tool fails validation: %v", err)
						}
					}
					v = ts
				case "tool_choice":
					c, err := decodeToolChoice(raw)
					if err != nil {
						t.Fatalf("tool_choice: %v", err)
					}
					if _, ok := c.(UnknownToolChoice); ok {
						t.Errorf("tool_choice decoded as unknown: %s", raw)
					}
					v = c
				case "thinking":
					c, err := decodeThinkingConfig(raw)
					if err != nil {
						t.Fatalf("thinking: %v", err)
					}
					if _, ok := c.(UnknownThinkingConfig); ok {
						t.Errorf("thinking decoded as unknown: %s", raw)
					}
					v = c
				case "output_config":
					c, err := codec.Decode[OutputConfig](raw)
					if err != nil {
						t.Fatalf("output_config: %v", err)
					}
					v = c
				case "metadata":
					c, err := codec.Decode[Metadata](raw)
					if err != nil {
						t.Fatalf("metadata: %v", err)
					}
					v = c
				case "context_management":
					c, err := codec.Decode[ContextManagement](raw)
					if err != nil {
						t.Fatalf("context_management: %v", err)
					}
					for i, e := range c.Edits {
						if _, ok := e.(UnknownContextEdit); ok {
							t.Errorf("context_management.edits[%d] decoded as unknown", i)
						}
					}
					v = c
				case "mcp_servers":
					var c MCPServers
					if err := json.Unmarshal(raw, &c); err != nil {
						t.Fatalf("mcp_servers: %v", err)
					}
					v = c
				default:
					continue
				}
				got, err := codec.Marshal(v)
				if err != nil {
					t.Fatalf("%s: encode: %v", member, err)
				}
				t.Run(member, func(t *testing.T) { rcJSONEqual(t, got, raw) })
				checked[member]++
			}
		})
	}
	// The recordings hold all of these; a silent skip would hide a bug.
	for _, m := range []string{"tools", "tool_choice", "thinking", "output_config", "context_management", "mcp_servers"} {
		if checked[m] == 0 {
			t.Errorf("no recorded request has %s", m)
		}
	}
	t.Logf("checked members: %v", checked)
}
