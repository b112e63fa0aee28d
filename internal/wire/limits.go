package wire

// Limits the service enforces on request bodies that the SDK checks before
// sending and the fake (mmstest) refuses with the service's 400. They are
// here so both sides read one list; the root package's own copies are held
// equal to these by mmstest_agrees_test.go.
const (
	// The metadata member of the managed-agents resources.
	MaxMetadataPairs    = 16
	MaxMetadataKeyLen   = 64  // characters; at least 1
	MaxMetadataValueLen = 512 // characters

	// Agents.
	MaxAgentSystemLen       = 100_000 // characters of system
	MaxAgentTools           = 128
	MaxAgentMCPServers      = 20
	MaxAgentMCPServerName   = 255 // characters
	MaxCustomToolNameLen    = 128 // characters of [a-zA-Z0-9_-]
	MaxCustomToolDescLength = 4096

	// Message Batches.
	MaxBatchRequests       = 100_000
	MaxBatchCustomIDLength = 64

	// Sessions.
	MaxInitialEvents       = 50
	MaxResourceInstruction = 4096 // characters of a resource's instructions

	// Memory stores.
	MaxMemoryStoreNameLen        = 255
	MaxMemoryStoreDescriptionLen = 1024

	// Vaults and credentials: display_name.
	MaxDisplayNameLen = 255

	// User profiles: external_id, name, hashes, reference_id.
	MaxUserProfileTextLen = 255
)
