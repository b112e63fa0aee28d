// Command agent runs langchaingo's OpenAIFunctionsAgent on the mms service
// through the adapter: the agent calls a Go tool, the model answers, the
// text streams as it arrives, and thinking stays on across the tool call
// (its signed blocks go back to the service).
//
// Without $VENDOR_API_KEY it runs offline, against mmstest (the SDK's
// in-process fake) with a scripted model; with it, against the service:
//
//	go run ./examples/agent "What time is it in UTC?"
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/agent "What time is it in UTC?"
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"

	mms "github.com/mms-sdk/mms-go"
	langchaingo "github.com/mms-sdk/mms-go/adapters/langchaingo"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func main() {
	question := strings.Join(os.Args[1:], " ")
	if question == "" {
		question = "What time is it in UTC?"
	}
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	var opts []option.RequestOption
	if os.Getenv("VENDOR_API_KEY") == "" {
		srv := mmstest.NewServer(mmstest.WithScript(
			mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_time", Input: `{"__arg1":"UTC"}`}}},
			mmstest.Turn{Text: "It is 12:00 in UTC."},
		))
		defer srv.Close()
		opts = srv.ClientOptions()
	}
	client, err := mms.NewClient(opts...) // else $VENDOR_API_KEY and $VENDOR_BASE_URL
	if err != nil {
		log.Fatal(err)
	}
	if err := run(context.Background(), client, model, question, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// clock is a langchaingo tool: the time in a time zone.
type clock struct{ w io.Writer }

func (clock) Name() string { return "get_time" }
func (clock) Description() string {
	return "The current time in a time zone, e.g. UTC or Europe/Paris."
}
func (c clock) Call(_ context.Context, zone string) (string, error) {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return "unknown time zone " + zone, nil // the model reads it
	}
	fmt.Fprintf(c.w, "\n-> get_time(%s)\n", zone)
	if zone == "UTC" {
		return "12:00", nil // fixed, so that the offline run is reproducible
	}
	return time.Now().In(loc).Format("15:04"), nil
}

// run asks question through the agent, streaming the model's text to w,
// then writes the answer.
func run(ctx context.Context, client *mms.Client, model, question string, w io.Writer) error {
	llm, err := langchaingo.New(client,
		langchaingo.WithModel(model),
		langchaingo.WithMaxTokens(4096),
		// The agent builds its own calls: thinking is a default of the LLM.
		langchaingo.WithCallOptions(llms.WithThinkingBudget(mms.MinThinkingBudget)),
	)
	if err != nil {
		return err
	}
	agent := agents.NewOpenAIFunctionsAgent(llm, []tools.Tool{clock{w}})
	executor := agents.NewExecutor(agent, agents.WithMaxIterations(5))
	answer, err := chains.Run(ctx, executor, question, chains.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
		_, err := w.Write(chunk)
		return err
	}))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nanswer: %s\n", answer)
	return nil
}
