package mms_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go"
)

// The request rules of the service's published schema that live in request
// configuration (tools, metadata, container, mcp_servers, thinking,
// context_management, output_config), the sampling parameters and batch
// creation (../shared/spec/request-constraints.md). Each rule is checked on
// both sides of its limit through the public Validate methods, which Create,
// CountTokens and Batches.Create call before sending.

// limitCase is one rule: inside is just within the limit and must pass;
// outside is just beyond it and must fail with a *ValidationError naming
// field.
type limitCase struct {
	name            string
	field           string
	inside, outside func() error
}

// limCreate validates a minimal valid Create request after edit.
func limCreate(edit func(p *mms.MessageCreateParams)) error {
	p := mms.MessageCreateParams{Model: "m", MaxTokens: 4096,
		Messages: []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: "Hi"})}}
	edit(&p)
	return p.Validate()
}

// limCount validates a minimal valid count_tokens request after edit.
func limCount(edit func(p *mms.MessageCountTokensParams)) error {
	p := mms.MessageCountTokensParams{Model: "m", Messages: []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: "Hi"})}}
	edit(&p)
	return p.Validate()
}

// limTool validates a Create request with the one tool.
func limTool(t mms.Tool) func() error {
	return func() error { return limCreate(func(p *mms.MessageCreateParams) { p.Tools = mms.Tools{t} }) }
}

// limEdit validates a Create request with the one context edit.
func limEdit(e mms.ContextEdit) func() error {
	return func() error {
		return limCreate(func(p *mms.MessageCreateParams) {
			p.ContextManagement = &mms.ContextManagement{Edits: mms.ContextEdits{e}}
		})
	}
}

// limCreateWith validates a Create request after edit.
func limCreateWith(edit func(p *mms.MessageCreateParams)) func() error {
	return func() error { return limCreate(edit) }
}

// limBatch validates a batch of n minimal requests, the first with the
// given custom id ("" for a generated one).
func limBatch(n int, firstID string) func() error {
	return func() error {
		p := mms.BatchCreateParams{Requests: make([]mms.BatchRequest, n)}
		for i := range p.Requests {
			p.Requests[i] = mms.BatchRequest{CustomID: fmt.Sprintf("r%d", i), Params: mms.MessageCreateParams{
				Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: "Hi"})}}}
		}
		if n > 0 && firstID != "" {
			p.Requests[0].CustomID = firstID
		}
		return p.Validate()
	}
}

func limServers(n int) mms.MCPServers {
	s := make(mms.MCPServers, n)
	for i := range s {
		s[i] = mms.MCPServerDefinition{Name: fmt.Sprintf("s%d", i), URL: "https://mcp.example/" + fmt.Sprint(i)}
	}
	return s
}

func limSkills(n int) []mms.SkillParam {
	s := make([]mms.SkillParam, n)
	for i := range s {
		s[i] = mms.SkillParam{Type: "vendor", SkillID: fmt.Sprintf("skill%d", i)}
	}
	return s
}

func limCustomTool(name string) mms.CustomTool {
	return mms.CustomTool{Name: name, InputSchema: mms.InputSchema(`{"type":"object"}`)}
}

// limLocation is a user location decoded from JSON, so that an explicit
// "" (which is sent back) can be tested.
func limLocation(t *testing.T, js string) *mms.UserLocation {
	t.Helper()
	var l mms.UserLocation
	if err := json.Unmarshal([]byte(js), &l); err != nil {
		t.Fatal(err)
	}
	return &l
}

func limSearchAt(l *mms.UserLocation) func() error {
	return limTool(mms.WebSearchTool{Version: mms.WebSearch20250305, UserLocation: l})
}

func limX(n int) string { return strings.Repeat("x", n) }

func limitCases(t *testing.T) []limitCase {
	cases := []limitCase{
		// Custom tool name: 1–128 characters of [a-zA-Z0-9_-].
		{"custom tool name max length", "tools[0].name", limTool(limCustomTool(limX(128))), limTool(limCustomTool(limX(129)))},
		{"custom tool name min length", "tools[0].name", limTool(limCustomTool("a")), limTool(limCustomTool(""))},
		{"custom tool name pattern", "tools[0].name", limTool(limCustomTool("get_weather-2")), limTool(limCustomTool("get.weather"))},
		{"custom tool name non-ASCII", "tools[0].name", limTool(limCustomTool("weather")), limTool(limCustomTool("météo"))},

		// metadata.user_id: at most 512 characters (not bytes).
		{"metadata user_id", "metadata.user_id",
			limCreateWith(func(p *mms.MessageCreateParams) { p.Metadata = &mms.MessageMetadata{UserID: strings.Repeat("é", 512)} }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.Metadata = &mms.MessageMetadata{UserID: limX(513)} })},

		// container.skills: at most 8; skill_id and version 1–64.
		{"container skills count", "container.skills",
			limCreateWith(func(p *mms.MessageCreateParams) { p.Container = &mms.ContainerParam{Skills: limSkills(8)} }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.Container = &mms.ContainerParam{Skills: limSkills(9)} })},
		{"skill_id max length", "container.skills[0].skill_id",
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.Container = &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: limX(64)}}}
			}),
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.Container = &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: limX(65)}}}
			})},
		{"skill_id min length", "container.skills[0].skill_id",
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.Container = &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: "a"}}}
			}),
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.Container = &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: ""}}}
			})},
		{"skill version max length", "container.skills[0].version",
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.Container = &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: "s", Version: strings.Repeat("é", 64)}}}
			}),
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.Container = &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: "s", Version: limX(65)}}}
			})},

		// mcp_servers: at most 20, on Create and count_tokens alike.
		{"mcp_servers count (create)", "mcp_servers",
			limCreateWith(func(p *mms.MessageCreateParams) { p.MCPServers = limServers(20) }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.MCPServers = limServers(21) })},
		{"mcp_servers count (count_tokens)", "mcp_servers",
			func() error { return limCount(func(p *mms.MessageCountTokensParams) { p.MCPServers = limServers(20) }) },
			func() error { return limCount(func(p *mms.MessageCountTokensParams) { p.MCPServers = limServers(21) }) }},

		// mcp_toolset.mcp_server_name: 1–255.
		{"mcp_server_name max length", "tools[0].mcp_server_name",
			limTool(mms.MCPToolset{MCPServerName: limX(255)}), limTool(mms.MCPToolset{MCPServerName: limX(256)})},
		{"mcp_server_name min length", "tools[0].mcp_server_name",
			limTool(mms.MCPToolset{MCPServerName: "a"}), limTool(mms.MCPToolset{MCPServerName: ""})},

		// Text editor max_characters ≥ 1.
		{"text editor max_characters", "tools[0].max_characters",
			limTool(mms.TextEditorTool{Version: mms.TextEditor20250728, MaxCharacters: mms.Ptr(1)}),
			limTool(mms.TextEditorTool{Version: mms.TextEditor20250728, MaxCharacters: mms.Ptr(0)})},

		// Advisor max_uses > 0.
		{"advisor max_uses", "tools[0].max_uses",
			limTool(mms.AdvisorTool{Version: mms.Advisor20260301, Model: "m", MaxUses: mms.Ptr(1)}),
			limTool(mms.AdvisorTool{Version: mms.Advisor20260301, Model: "m", MaxUses: mms.Ptr(0)})},

		// user_location: city, region, timezone 1–255; country exactly 2
		// characters, any case.
		{"country lowercase", "tools[0].user_location.country",
			limSearchAt(&mms.UserLocation{Country: "fr"}), limSearchAt(&mms.UserLocation{Country: "fra"})},
		{"country one character", "tools[0].user_location.country",
			limSearchAt(&mms.UserLocation{Country: "FR"}), limSearchAt(&mms.UserLocation{Country: "F"})},
		{"country explicit empty", "tools[0].user_location.country",
			limSearchAt(limLocation(t, `{"type":"approximate","country":null}`)),
			limSearchAt(limLocation(t, `{"type":"approximate","country":""}`))},

		// thinking.budget_tokens ≥ 1024.
		{"thinking budget", "thinking.budget_tokens",
			limCreateWith(func(p *mms.MessageCreateParams) { p.Thinking = mms.ThinkingConfigEnabled{BudgetTokens: 1024} }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.Thinking = mms.ThinkingConfigEnabled{BudgetTokens: 1023} })},

		// Context management amounts.
		{"trigger input_tokens", "context_management.edits[0].trigger.value",
			limEdit(mms.ClearToolUsesEdit{Trigger: &mms.ContextAmount{Type: mms.ContextUnitInputTokens, Value: 1}}),
			limEdit(mms.ClearToolUsesEdit{Trigger: &mms.ContextAmount{Type: mms.ContextUnitInputTokens, Value: 0}})},
		{"trigger tool_uses", "context_management.edits[0].trigger.value",
			limEdit(mms.ClearToolUsesEdit{Trigger: &mms.ContextAmount{Type: mms.ContextUnitToolUses, Value: 1}}),
			limEdit(mms.ClearToolUsesEdit{Trigger: &mms.ContextAmount{Type: mms.ContextUnitToolUses, Value: 0}})},
		{"compact trigger", "context_management.edits[0].trigger.value",
			limEdit(mms.CompactEdit{Trigger: &mms.ContextAmount{Type: mms.ContextUnitInputTokens, Value: 1}}),
			limEdit(mms.CompactEdit{Trigger: &mms.ContextAmount{Type: mms.ContextUnitInputTokens, Value: 0}})},
		{"keep tool_uses", "context_management.edits[0].keep.value",
			limEdit(mms.ClearToolUsesEdit{Keep: &mms.ContextAmount{Type: mms.ContextUnitToolUses, Value: 0}}),
			limEdit(mms.ClearToolUsesEdit{Keep: &mms.ContextAmount{Type: mms.ContextUnitToolUses, Value: -1}})},
		{"keep thinking_turns", "context_management.edits[0].keep.value",
			limEdit(mms.ClearThinkingEdit{Keep: mms.ThinkingKeepTurns{Value: 1}}),
			limEdit(mms.ClearThinkingEdit{Keep: mms.ThinkingKeepTurns{Value: 0}})},
		{"clear_at_least", "context_management.edits[0].clear_at_least.value",
			limEdit(mms.ClearToolUsesEdit{ClearAtLeast: &mms.ContextAmount{Type: mms.ContextUnitInputTokens, Value: 0}}),
			limEdit(mms.ClearToolUsesEdit{ClearAtLeast: &mms.ContextAmount{Type: mms.ContextUnitInputTokens, Value: -1}})},

		// output_config.task_budget: total ≥ 1024, remaining ≥ 0.
		{"task_budget total", "output_config.task_budget.total",
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.OutputConfig = &mms.OutputConfig{TaskBudget: &mms.TaskBudget{Total: 1024}}
			}),
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.OutputConfig = &mms.OutputConfig{TaskBudget: &mms.TaskBudget{Total: 1023}}
			})},
		{"task_budget remaining", "output_config.task_budget.remaining",
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.OutputConfig = &mms.OutputConfig{TaskBudget: &mms.TaskBudget{Total: 2048, Remaining: mms.Ptr(0)}}
			}),
			limCreateWith(func(p *mms.MessageCreateParams) {
				p.OutputConfig = &mms.OutputConfig{TaskBudget: &mms.TaskBudget{Total: 2048, Remaining: mms.Ptr(-1)}}
			})},

		// Sampling parameters.
		{"max_tokens", "max_tokens",
			limCreateWith(func(p *mms.MessageCreateParams) { p.MaxTokens = 0 }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.MaxTokens = -1 })},
		{"temperature min", "temperature",
			limCreateWith(func(p *mms.MessageCreateParams) { p.Temperature = mms.Ptr(0.0) }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.Temperature = mms.Ptr(-0.01) })},
		{"temperature max", "temperature",
			limCreateWith(func(p *mms.MessageCreateParams) { p.Temperature = mms.Ptr(1.0) }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.Temperature = mms.Ptr(1.01) })},
		{"top_p min", "top_p",
			limCreateWith(func(p *mms.MessageCreateParams) { p.TopP = mms.Ptr(0.0) }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.TopP = mms.Ptr(-0.01) })},
		{"top_p max", "top_p",
			limCreateWith(func(p *mms.MessageCreateParams) { p.TopP = mms.Ptr(1.0) }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.TopP = mms.Ptr(1.01) })},
		{"top_k", "top_k",
			limCreateWith(func(p *mms.MessageCreateParams) { p.TopK = mms.Ptr(0) }),
			limCreateWith(func(p *mms.MessageCreateParams) { p.TopK = mms.Ptr(-1) })},

		// Batch creation: 1–100,000 requests, custom_id ^[a-zA-Z0-9_-]{1,64}$.
		{"batch min requests", "requests", limBatch(1, ""), limBatch(0, "")},
		{"batch max requests", "requests", limBatch(mms.MaxBatchRequests, ""), limBatch(mms.MaxBatchRequests+1, "")},
		{"custom_id max length", "requests[0].custom_id", limBatch(1, limX(64)), limBatch(1, limX(65))},
		{"custom_id pattern", "requests[0].custom_id", limBatch(1, "a-B_9"), limBatch(1, "a.b")},
	}

	// Computer use display, every version.
	for _, v := range []mms.ComputerVersion{mms.Computer20241022, mms.Computer20250124, mms.Computer20251124} {
		screen := func(w, h int, n *int) mms.Tool {
			return mms.ComputerTool{Version: v, DisplayWidthPx: w, DisplayHeightPx: h, DisplayNumber: n}
		}
		cases = append(cases,
			limitCase{string(v) + " display_width_px", "tools[0].display_width_px", limTool(screen(1, 1, nil)), limTool(screen(0, 1, nil))},
			limitCase{string(v) + " display_height_px", "tools[0].display_height_px", limTool(screen(1, 1, nil)), limTool(screen(1, 0, nil))},
			limitCase{string(v) + " display_number", "tools[0].display_number", limTool(screen(1, 1, mms.Ptr(0))), limTool(screen(1, 1, mms.Ptr(-1)))})
	}
	// Web fetch max_content_tokens and max_uses > 0, every version.
	for _, v := range []mms.WebFetchVersion{mms.WebFetch20250910, mms.WebFetch20260209, mms.WebFetch20260309, mms.WebFetch20260318} {
		cases = append(cases,
			limitCase{string(v) + " max_content_tokens", "tools[0].max_content_tokens",
				limTool(mms.WebFetchTool{Version: v, MaxContentTokens: mms.Ptr(1)}),
				limTool(mms.WebFetchTool{Version: v, MaxContentTokens: mms.Ptr(0)})},
			limitCase{string(v) + " max_uses", "tools[0].max_uses",
				limTool(mms.WebFetchTool{Version: v, MaxUses: mms.Ptr(1)}),
				limTool(mms.WebFetchTool{Version: v, MaxUses: mms.Ptr(0)})})
	}
	// Web search max_uses > 0, every version.
	for _, v := range []mms.WebSearchVersion{mms.WebSearch20250305, mms.WebSearch20260209, mms.WebSearch20260318} {
		cases = append(cases, limitCase{string(v) + " max_uses", "tools[0].max_uses",
			limTool(mms.WebSearchTool{Version: v, MaxUses: mms.Ptr(1)}),
			limTool(mms.WebSearchTool{Version: v, MaxUses: mms.Ptr(0)})})
	}
	// user_location city, region, timezone: 1–255 characters; an explicit ""
	// (kept from decoding and sent back) is too short.
	for _, m := range []string{"city", "region", "timezone"} {
		at := func(v string) *mms.UserLocation {
			return limLocation(t, fmt.Sprintf(`{"type":"approximate",%q:%q}`, m, v))
		}
		cases = append(cases,
			limitCase{"user_location " + m + " max length", "tools[0].user_location." + m,
				limSearchAt(at(strings.Repeat("é", 255))), limSearchAt(at(limX(256)))},
			limitCase{"user_location " + m + " min length", "tools[0].user_location." + m,
				limSearchAt(at("a")), limSearchAt(at(""))})
	}
	return cases
}

func TestRequestLimits(t *testing.T) {
	for _, c := range limitCases(t) {
		t.Run(c.name, func(t *testing.T) {
			if err := c.inside(); err != nil {
				t.Errorf("just inside the limit: %v", err)
			}
			err := c.outside()
			var ve *mms.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("just outside the limit: err = %v, want a *ValidationError", err)
			}
			if ve.Field != c.field {
				t.Errorf("Field = %q, want %q (%v)", ve.Field, c.field, err)
			}
			if !errors.Is(err, mms.ErrInvalidParams) {
				t.Errorf("errors.Is(%v, ErrInvalidParams) = false", err)
			}
		})
	}
}
