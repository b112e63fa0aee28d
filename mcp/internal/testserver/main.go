// Command testserver serves the mcpserver test server over stdio, for the
// bridge's command transport tests, with one more tool: exit, which ends
// the process in the middle of the call (a server that dies).
package main

import (
	"context"
	"encoding/json"
	"log"
	"os"

	"github.com/mms-sdk/mms-go/mcp/internal/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	s := mcpserver.New(nil)
	s.AddTool(&mcp.Tool{Name: "exit", Description: "Ends the server", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
