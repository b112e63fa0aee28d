package mms

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/fixtures"
)

// TestRecordedRequestConfig decodes the request-configuration members of
// every request body (tools, tool_choice, thinking, output_config,
// metadata, context_management, mcp_servers), requires every union value to
// be a known variant, and requires the re-encoding to be the same JSON. It
// runs over the project's request bodies and, when present, the recorded
// ones (../shared/recorded/*/*.request.json, read in place).
func TestRecordedRequestConfig(t *testing.T) {
	files := append(requestBodyFiles(t), fixtures.Recorded(t, "*/*.request.json")...)
	checked := map[string]map[string]int{} // layer → member → count
	for _, f := range files {
		layer := "project"
		if fixtures.IsRecorded(f) {
			layer = "recorded"
		}
		if checked[layer] == nil {
			checked[layer] = map[string]int{}
		}
		t.Run(fixtures.Name(f), func(t *testing.T) {
			data := fixtures.Read(t, f)
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
					c, err := toolChoiceUnion.Decode(raw)
					if err != nil {
						t.Fatalf("tool_choice: %v", err)
					}
					if _, ok := c.(UnknownToolChoice); ok {
						t.Errorf("tool_choice decoded as unknown: %s", raw)
					}
					v = c
				case "thinking":
					c, err := thinkingConfigUnion.Decode(raw)
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
				checked[layer][member]++
			}
		})
	}
	// Each layer holds all of these; a silent gap would hide a bug.
	for layer, members := range checked {
		for _, m := range []string{"tools", "tool_choice", "thinking", "output_config", "context_management", "mcp_servers"} {
			if members[m] == 0 {
				t.Errorf("no %s request body has %s", layer, m)
			}
		}
	}
	t.Logf("checked members: %v", checked)
}
