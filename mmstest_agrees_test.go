package mms

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
	} {
		assert.Equal(t, c.sdk, c.fake, c.name)
	}
}
