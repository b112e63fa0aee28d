package mms

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestMCPServersRoundTrip(t *testing.T) {
	rcRoundTrip(t, []rcCase[MCPServers]{
		{"minimal", MCPServers{{Name: "deepwiki", URL: "https://mcp.deepwiki.com/mcp"}},
			`[{"type":"url","name":"deepwiki","url":"https://mcp.deepwiki.com/mcp"}]`},
		{"full", MCPServers{{Name: "w", URL: "https://w.example/mcp", AuthorizationToken: NewSecret("tok"),
			ToolConfiguration: &MCPToolConfiguration{Enabled: Ptr(true), AllowedTools: []string{"ask_question"}}}},
			`[{"type":"url","name":"w","url":"https://w.example/mcp","authorization_token":"tok","tool_configuration":{"enabled":true,"allowed_tools":["ask_question"]}}]`},
		{"nulls", MCPServers{{Name: "w", URL: "u", Extra: map[string]json.RawMessage{"authorization_token": json.RawMessage("null")},
			ToolConfiguration: &MCPToolConfiguration{Extra: map[string]json.RawMessage{"enabled": json.RawMessage("null"), "allowed_tools": json.RawMessage("null")}}}},
			`[{"type":"url","name":"w","url":"u","authorization_token":null,"tool_configuration":{"enabled":null,"allowed_tools":null}}]`},
	}, rcUnmarshal[MCPServers])
}

func TestMCPServersValidate(t *testing.T) {
	cases := []struct {
		name    string
		servers MCPServers
		field   string
		rule    string
	}{
		{"ok", MCPServers{{Name: "a", URL: "https://a"}}, "", ""},
		{"no name", MCPServers{{Name: "a", URL: "https://a"}, {URL: "https://b", AuthorizationToken: NewSecret("secret-token")}}, "mcp_servers[1].name", "must not be empty"},
		{"no url", MCPServers{{Name: "a"}}, "mcp_servers[0].url", "must not be empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.servers.validate("mcp_servers")
			rcWantInvalid(t, err, c.field, c.rule)
			if err != nil && strings.Contains(err.Error(), "secret-token") {
				t.Errorf("error shows the token: %v", err)
			}
		})
	}
}

func TestMCPServerDefinitionRedactsToken(t *testing.T) {
	d := MCPServerDefinition{Name: "a", URL: "https://a", AuthorizationToken: NewSecret("secret-token")}
	for _, s := range []string{d.String(), fmt.Sprintf("%v", d), fmt.Sprintf("%+v", MCPServers{d})} {
		if strings.Contains(s, "secret-token") {
			t.Errorf("formatted value shows the token: %s", s)
		}
	}
}

func TestMCPServersBetas(t *testing.T) {
	cases := []struct {
		name    string
		servers MCPServers
		want    []string
	}{
		{"none", nil, nil},
		{"url only", MCPServers{{Name: "a", URL: "u"}}, []string{"mcp-client-2025-11-20"}},
		{"tool configuration", MCPServers{{Name: "a", URL: "u"}, {Name: "b", URL: "u", ToolConfiguration: &MCPToolConfiguration{}}}, []string{"mcp-client-2025-04-04"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { rcWantBetas(t, c.want, c.servers.betas()) })
	}
}
