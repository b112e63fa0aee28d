// Command react-agent runs Eino's ReAct agent on the service through the
// eino adapter: the agent sends the conversation, runs the get_weather
// calls the model makes, sends the results back and repeats until the
// model answers. It runs offline against mmstest, whose script plays the
// model; to use the service, build the client with mms.NewClient() (the
// key from $VENDOR_API_KEY) instead.
//
//	go run ./examples/react-agent
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/adapters/eino"
	"github.com/mms-sdk/mms-go/mmstest"
)

// WeatherInput is what the model passes to get_weather; Eino derives the
// tool's JSON Schema from it.
type WeatherInput struct {
	City string `json:"city" jsonschema:"description=City name, e.g. Paris"`
}

func getWeather(_ context.Context, in WeatherInput) (string, error) {
	return fmt.Sprintf("18 °C and sunny in %s", in.City), nil
}

func main() {
	srv := mmstest.NewServer(mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}},
		mmstest.Turn{Text: "It is 18 °C and sunny in Paris."},
	))
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	if err := run(context.Background(), client, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run asks the agent about the weather and prints its answer.
func run(ctx context.Context, client *mms.Client, w io.Writer) error {
	cm, err := eino.NewChatModel(client, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024})
	if err != nil {
		return err
	}
	weather, err := utils.InferTool("get_weather", "Current weather in a city", getWeather)
	if err != nil {
		return err
	}
	agent, err := react.NewAgent(ctx, &react.AgentConfig{
		ToolCallingModel: cm,
		ToolsConfig:      compose.ToolsNodeConfig{Tools: []tool.BaseTool{weather}},
	})
	if err != nil {
		return err
	}
	answer, err := agent.Generate(ctx, []*schema.Message{schema.UserMessage("What is the weather in Paris?")})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, answer.Content)
	u := answer.ResponseMeta.Usage
	fmt.Fprintf(w, "[stop reason %s, %d input and %d output tokens in the last call, request %s]\n",
		answer.ResponseMeta.FinishReason, u.PromptTokens, u.CompletionTokens, eino.RequestID(answer))
	return nil
}
