package mms

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// TestFakeAgreesOnLimits holds the SDK's request limits equal to the ones
// the fake enforces (mmstest reads them from internal/wire): a limit that
// moved on one side only would let the SDK send what the fake refuses, or
// the fake accept what the service refuses.
func TestFakeAgreesOnLimits(t *testing.T) {
	for _, c := range []struct {
		name      string
		sdk, fake int
	}{
		{"metadata pairs", maxMetadataPairs, wire.MaxMetadataPairs},
		{"metadata key length", maxMetadataKeyLen, wire.MaxMetadataKeyLen},
		{"metadata value length", maxMetadataValueLen, wire.MaxMetadataValueLen},
		{"agent system length", maxAgentSystemLen, wire.MaxAgentSystemLen},
		{"agent tools", maxAgentTools, wire.MaxAgentTools},
		{"agent tool description", maxAgentToolDescription, wire.MaxCustomToolDescLength},
		{"custom tool name length", maxToolNameLen, wire.MaxCustomToolNameLen},
		{"agent MCP servers", maxAgentMCPServers, wire.MaxAgentMCPServers},
		{"agent MCP server name", maxAgentMCPServerName, wire.MaxAgentMCPServerName},
		{"batch requests", MaxBatchRequests, wire.MaxBatchRequests},
		{"batch custom_id length", MaxBatchCustomIDLength, wire.MaxBatchCustomIDLength},
		{"session initial events", maxInitialEvents, wire.MaxInitialEvents},
		{"session resource instructions", maxResourceInstruction, wire.MaxResourceInstruction},
		{"memory store name", maxMemoryStoreNameLen, wire.MaxMemoryStoreNameLen},
		{"memory store description", maxMemoryStoreDescriptionLen, wire.MaxMemoryStoreDescriptionLen},
		{"display_name length", maxDisplayNameLen, wire.MaxDisplayNameLen},
		{"user profile text length", maxUserProfileTextLen, wire.MaxUserProfileTextLen},
		{"deployment resources", maxDeploymentResources, wire.MaxDeploymentResources},
		{"deployment vault ids", maxDeploymentVaultIDs, wire.MaxDeploymentVaultIDs},
	} {
		assert.Equal(t, c.sdk, c.fake, c.name)
	}
}

// TestFakeAgreesOnPatterns holds the SDK's id and name checks (byte loops,
// for speed) to the patterns the fake enforces (regexps of internal/wire):
// each probe must be accepted by both or refused by both.
func TestFakeAgreesOnPatterns(t *testing.T) {
	probes := []string{"", "a", "Z9", "a-b_C9", "a b", "a.b", "a/b", "é", "tool\n", "-", "_",
		"srvtoolu_", "srvtoolu_01AbC", "srvtoolu_a-b", "SRVTOOLU_a", "toolu_01",
		strings.Repeat("x", 64), strings.Repeat("x", 65), strings.Repeat("x", 128), strings.Repeat("x", 129)}
	schema := InputSchema(`{"type":"object"}`)
	nameOK := func(err error) bool { // a CustomTool error about something other than its name passes
		var v *ValidationError
		return err == nil || errors.As(err, &v) && v.Field != "t.name"
	}
	for _, c := range []struct {
		name    string
		pattern string
		sdk     func(string) bool
	}{
		{"tool id", wire.ToolIDPattern, func(s string) bool { return checkToolID("id", s) == nil }},
		{"server tool id", wire.ServerToolIDPattern, func(s string) bool { return checkServerToolID("id", s) == nil }},
		{"custom tool name", wire.CustomToolNamePattern,
			func(s string) bool { return nameOK(CustomTool{Name: s, InputSchema: schema}.validate("t")) }},
		{"agent custom tool name", wire.CustomToolNamePattern,
			func(s string) bool { return nameOK(AgentCustomTool{Name: s, InputSchema: schema}.validate("t")) }},
		{"batch custom_id", wire.CustomIDPattern, func(s string) bool { return validateCustomID("custom_id", s) == nil }},
	} {
		re := regexp.MustCompile(c.pattern)
		for _, p := range probes {
			assert.Equal(t, re.MatchString(p), c.sdk(p), "%s %q", c.name, p)
		}
	}
	// The SDK's error messages quote its own copies of the patterns.
	assert.Equal(t, toolIDPattern, wire.ToolIDPattern)
	assert.Equal(t, serverToolIDPattern, wire.ServerToolIDPattern)
}

// TestFakeAgreesOnSessionStatuses holds the SDK's SessionStatus values
// equal to the ones the fake's statuses[] filter accepts.
func TestFakeAgreesOnSessionStatuses(t *testing.T) {
	sdk := []SessionStatus{SessionStatusRescheduling, SessionStatusRunning, SessionStatusIdle, SessionStatusTerminated}
	require.Len(t, wire.SessionStatuses, len(sdk))
	for i, s := range sdk {
		assert.Equal(t, string(s), wire.SessionStatuses[i])
	}
}
