// Command weather runs Genkit's tool loop on the service through the
// mmsgenkit plugin: genkit.Generate sends the question, runs the
// get_weather calls the model makes, sends the results back and streams
// the answer. It runs offline against mmstest, whose script plays the
// model; to use the service, build the client with mms.NewClient() (the
// key from $VENDOR_API_KEY) instead.
//
//	go run ./examples/weather
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	mms "github.com/mms-sdk/mms-go"
	mmsgenkit "github.com/mms-sdk/mms-go/adapters/genkit"
	"github.com/mms-sdk/mms-go/mmstest"
)

// WeatherInput is what the model passes to get_weather; Genkit derives the
// tool's JSON Schema from it.
type WeatherInput struct {
	City string `json:"city" jsonschema:"description=City name, e.g. Paris"`
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

// run asks about the weather, streaming the answer to w.
func run(ctx context.Context, client *mms.Client, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx) // ends genkit.Init's signal watch
	defer cancel()
	g := genkit.Init(ctx,
		genkit.WithPlugins(&mmsgenkit.Plugin{Client: client}),
		genkit.WithDefaultModel("mms/mms-large-1"),
	)
	weather := genkit.DefineTool(g, "get_weather", "Current weather in a city",
		func(_ *ai.ToolContext, in WeatherInput) (string, error) {
			return fmt.Sprintf("18 °C and sunny in %s", in.City), nil
		})
	resp, err := genkit.Generate(ctx, g,
		ai.WithPrompt("What is the weather in Paris?"),
		ai.WithTools(weather),
		ai.WithConfig(&mmsgenkit.Config{MaxOutputTokens: 1024}),
		ai.WithStreaming(func(_ context.Context, c *ai.ModelResponseChunk) error {
			_, err := io.WriteString(w, c.Text())
			return err
		}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n[finish %s (%s), %d input and %d output tokens in the last call, request %s]\n",
		resp.FinishReason, resp.FinishMessage, resp.Usage.InputTokens, resp.Usage.OutputTokens, mmsgenkit.RequestID(resp))
	return nil
}
