// Command tool-runner answers a question with two Go functions as tools:
// the tool runner sends the conversation, runs the calls the model makes
// (in parallel), sends their results back, and repeats until the model
// answers. Copy it into your program; it reads its settings from the
// environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/tool-runner "Is it warmer in Paris or in Oslo?"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/tool-runner
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
)

// WeatherInput is what the model passes to get_weather; its JSON Schema is
// derived from the struct (tags give descriptions and enums).
type WeatherInput struct {
	City string `json:"city" description:"City name, e.g. Paris"`
	Unit string `json:"unit,omitempty" enum:"celsius,fahrenheit" description:"Defaults to celsius"`
}

// Weather is what get_weather returns; the runner sends it as JSON.
type Weather struct {
	City        string  `json:"city"`
	Temperature float64 `json:"temperature"`
	Unit        string  `json:"unit"`
}

func getWeather(ctx context.Context, in WeatherInput) (Weather, error) {
	temps := map[string]float64{"paris": 18, "oslo": 9}
	t, ok := temps[strings.ToLower(in.City)]
	if !ok {
		return Weather{}, fmt.Errorf("no weather station in %s", in.City) // the model sees this as an error result
	}
	if in.Unit == "fahrenheit" {
		return Weather{in.City, t*9/5 + 32, "fahrenheit"}, nil
	}
	return Weather{in.City, t, "celsius"}, nil
}

func main() {
	question := strings.Join(os.Args[1:], " ")
	if question == "" {
		question = "Is it warmer in Paris or in Oslo? Use get_weather."
	}
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	// Offline, the fake plays the model: two calls at once, then an answer.
	// Against the service the script is unused.
	fake.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{
			{Name: "get_weather", Input: `{"city":"Paris"}`},
			{Name: "get_weather", Input: `{"city":"Oslo"}`},
		}},
		mmstest.Turn{Text: "Paris is warmer: 18 °C against 9 °C in Oslo."},
	)
	if err := run(context.Background(), client, model, question, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run streams the conversation: the model's text as it arrives, a line per
// tool call, then the number of requests it took.
func run(ctx context.Context, client *mms.Client, model, question string, w io.Writer) error {
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{
			Model:     model,
			MaxTokens: 1024,
			Messages:  []mms.MessageParam{mms.UserText(question)},
		},
		Tools:         []mms.RunnableTool{mms.NewTool("get_weather", "Current weather in a city", getWeather)},
		MaxIterations: 5,
	})
	requests := 0
	for step, err := range runner.Stream(ctx) {
		if err != nil {
			return err
		}
		if d, ok := step.Event.(mms.ContentBlockDeltaEvent); ok {
			if t, ok := d.Delta.(mms.TextDelta); ok {
				fmt.Fprint(w, t.Text)
			}
		}
		if step.Turn == nil {
			continue
		}
		requests++
		fmt.Fprintln(w)
		for _, c := range step.Turn.Calls {
			fmt.Fprintf(w, "-> %s %s: %s\n", c.Use.Name, c.Use.Input, resultText(c.Result))
		}
	}
	fmt.Fprintf(w, "[%d requests, stop reason %s]\n", requests, runner.Message().StopReason)
	return nil
}

// resultText is a tool result's text, marked when it is an error.
func resultText(r mms.ToolResultBlock) string {
	var sb strings.Builder
	if r.IsError != nil && *r.IsError {
		sb.WriteString("error: ")
	}
	for _, b := range r.Content {
		if t, ok := b.(mms.TextBlock); ok {
			sb.WriteString(t.Text)
		}
	}
	return sb.String()
}
