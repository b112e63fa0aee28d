// Package mcp connects the mms-go tool runner to MCP (Model Context
// Protocol) servers through the official Go MCP SDK
// (github.com/modelcontextprotocol/go-sdk/mcp).
//
// [Tools] turns the tools of an MCP client session into tool runner tools:
// their input schemas pass through, their results become tool_result
// content and a result the server marks as an error becomes an is_error
// result. [ResourceContent] turns a resource into content blocks and
// [Prompt] turns a prompt into messages. Content the Messages API has no
// block for (audio, images other than JPEG, PNG, GIF and WebP, other
// binary resources, resource links) becomes a text block describing it,
// starting with "[MCP "; a tool result larger than
// [Options].MaxResultBytes is truncated with a [TruncationMarker].
//
// The package is named like the SDK's; import one of them under another
// name. The shortest program, with an MCP server run as a command:
//
//	package main
//
//	import (
//		"context"
//		"fmt"
//		"log"
//		"os/exec"
//
//		mms "github.com/mms-sdk/mms-go"
//		mmsmcp "github.com/mms-sdk/mms-go/mcp"
//		"github.com/modelcontextprotocol/go-sdk/mcp"
//	)
//
//	func main() {
//		ctx := context.Background()
//		client := mcp.NewClient(&mcp.Implementation{Name: "my-app", Version: "v1"}, nil)
//		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("my-mcp-server")}, nil)
//		if err != nil {
//			log.Fatal(err)
//		}
//		defer session.Close()
//		tools, err := mmsmcp.Tools(ctx, session, nil)
//		if err != nil {
//			log.Fatal(err)
//		}
//		c, err := mms.NewClient()
//		if err != nil {
//			log.Fatal(err)
//		}
//		msg, err := c.Messages.NewToolRunner(mms.ToolRunnerParams{
//			Params: mms.MessageCreateParams{
//				Model:     "mms-large-1",
//				MaxTokens: 1024,
//				Messages:  []mms.MessageParam{mms.UserText("What can you do with your tools?")},
//			},
//			Tools: tools,
//		}).Run(ctx)
//		if err != nil {
//			log.Fatal(err)
//		}
//		fmt.Println(msg.Text())
//	}
package mcp
