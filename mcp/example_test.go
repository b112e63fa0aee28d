package mcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mms "github.com/mms-sdk/mms-go"
	mmsmcp "github.com/mms-sdk/mms-go/mcp"
	"github.com/mms-sdk/mms-go/mmstest"
)

// The tools of an MCP server (here in memory) in the tool runner, against
// the fake service scripted to call one.
func ExampleTools() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "v1"}, nil)
	type In struct {
		Name string `json:"name"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "Greets someone"},
		func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, " + in.Name + "!"}}}, nil, nil
		})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Wait()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "v1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	tools, err := mmsmcp.Tools(ctx, session, nil)
	if err != nil {
		log.Fatal(err)
	}

	srv := mmstest.NewServer(mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "greet", Input: `{"name":"Ada"}`}}},
		mmstest.Turn{Text: "I greeted Ada."},
	))
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{
			Model:     "mms-large-1",
			MaxTokens: 1024,
			Messages:  []mms.MessageParam{mms.UserText("Greet Ada.")},
		},
		Tools: tools,
	})
	for turn, err := range runner.Turns(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		for _, c := range turn.Calls {
			fmt.Printf("%s %s -> %s\n", c.Use.Name, c.Use.Input, c.Result.Content[0].(mms.TextBlock).Text)
		}
	}
	fmt.Println(runner.Message().Text())
	// Output:
	// greet {"name":"Ada"} -> Hello, Ada!
	// I greeted Ada.
}
