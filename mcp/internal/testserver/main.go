// Command testserver serves the mcpserver test server over stdio, for the
// bridge's command transport tests.
package main

import (
	"context"
	"log"

	"github.com/mms-sdk/mms-go/mcp/internal/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := mcpserver.New(nil).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
