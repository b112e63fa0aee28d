package wire

// Patterns of ids and names the service checks in request bodies (Go
// regexp syntax), which the SDK checks before sending and the fake
// (mmstest) enforces with the service's 400. The SDK's byte-loop checks
// are held to these by mmstest_agrees_test.go.
const (
	// ToolIDPattern is a client tool call's id (tool_use, tool_result,
	// mcp_tool_use, mcp_tool_result).
	ToolIDPattern = `^[a-zA-Z0-9_-]+$`
	// ServerToolIDPattern is a server tool call's id.
	ServerToolIDPattern = `^srvtoolu_[a-zA-Z0-9_]+$`
	// CustomToolNamePattern is a custom tool's name (MaxCustomToolNameLen).
	CustomToolNamePattern = `^[a-zA-Z0-9_-]{1,128}$`
	// CustomIDPattern is a batch request's custom_id
	// (MaxBatchCustomIDLength).
	CustomIDPattern = `^[a-zA-Z0-9_-]{1,64}$`
)

// SessionStatuses are the statuses a session can have, in the order the
// service's messages list them (the statuses[] filter of GET /v1/sessions).
var SessionStatuses = []string{"rescheduling", "running", "idle", "terminated"}
