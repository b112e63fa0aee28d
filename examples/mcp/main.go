// Command mcp runs the tool runner with the tools of an MCP server,
// offline: the MCP server is built with the official Go MCP SDK and served
// in memory, and the model is the service given VENDOR_API_KEY and
// VENDOR_BASE_URL, else mmstest (the SDK's in-process fake), scripted to
// call the server's tool and then answer.
//
//	go run .
//
// For a real server, connect with another transport (mcp.CommandTransport
// runs a server binary, mcp.StreamableClientTransport reaches one over
// HTTP), and for the model use mms.NewClient().
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	mmsmcp "github.com/mms-sdk/mms-go/mcp"
	"github.com/mms-sdk/mms-go/mmstest"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// WeatherInput is the input of the MCP server's get_weather tool.
type WeatherInput struct {
	City string `json:"city" jsonschema:"the city"`
}

// newServer is the MCP server: one tool and one resource.
func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_weather", Description: "Current temperature in a city"},
		func(_ context.Context, _ *mcp.CallToolRequest, in WeatherInput) (*mcp.CallToolResult, any, error) {
			temps := map[string]string{"Paris": "18 °C", "Oslo": "9 °C"}
			t, ok := temps[in.City]
			if !ok {
				return nil, nil, fmt.Errorf("no weather station in %s", in.City) // an is_error result
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.City + ": " + t}}}, nil, nil
		})
	s.AddResource(&mcp.Resource{URI: "weather://stations", Name: "stations", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				{URI: "weather://stations", MIMEType: "text/plain", Text: "Paris, Oslo"}}}, nil
		})
	return s
}

// run connects to the MCP server, gives its tools to the tool runner and
// writes each call and the answer to w.
func run(ctx context.Context, w io.Writer) error {
	// The MCP side: server and client session over in-memory transports.
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	ss, err := newServer().Connect(ctx, serverTransport, nil)
	if err != nil {
		return err
	}
	defer ss.Wait()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1"}, nil).Connect(ctx, clientTransport, nil)
	if err != nil {
		return err
	}
	defer session.Close()

	tools, err := mmsmcp.Tools(ctx, session, nil)
	if err != nil {
		return err
	}
	// A resource goes into the conversation as content blocks.
	stations, err := mmsmcp.ResourceContent(ctx, session, "weather://stations")
	if err != nil {
		return err
	}

	// The model's side: the service when the environment configures one,
	// else the built-in fake, scripted to call the tool twice. In your
	// program: client, err := mms.NewClient().
	client, fake, err := exampleclient.New()
	if err != nil {
		return err
	}
	defer fake.Close()
	fake.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{
			{Name: "get_weather", Input: `{"city":"Paris"}`},
			{Name: "get_weather", Input: `{"city":"Rome"}`},
		}},
		mmstest.Turn{Text: "Paris is at 18 °C; Rome has no station."},
	)

	question := append(mms.ContentBlocks{mms.TextBlock{Text: "How warm is it in Paris and in Rome?"}}, stations...)
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{
			Model:     "mms-large-1",
			MaxTokens: 1024,
			Messages:  []mms.MessageParam{mms.UserMessage(question...)},
		},
		Tools: tools,
	})
	for turn, err := range runner.Turns(ctx) {
		if err != nil {
			return err
		}
		for _, c := range turn.Calls {
			status := "ok"
			if c.Result.IsError != nil && *c.Result.IsError {
				status = "error"
			}
			fmt.Fprintf(w, "%s %s -> %s: %s\n", c.Use.Name, c.Use.Input, status, resultText(c.Result))
		}
	}
	fmt.Fprintln(w, runner.Message().Text())
	return nil
}

// resultText is the text of a tool result.
func resultText(r mms.ToolResultBlock) string {
	s := ""
	for _, b := range r.Content {
		if t, ok := b.(mms.TextBlock); ok {
			s += t.Text
		}
	}
	return s
}
