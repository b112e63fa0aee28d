// Command accounting sends a few messages and accounts for each reply: the
// tier that served it, the priority capacity it burned (at the service's
// rates) and what it cost by your price table, then the totals. Copy it
// into your program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/accounting "one" "two" "three"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/accounting
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
)

// prices is an illustrative price table, per million tokens: the SDK ships
// no prices, so put your own here.
var prices = mms.PriceTable{
	Models: map[string]mms.ModelPrices{
		"mms-large-1": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite5m: 3.75, CacheWrite1h: 6},
	},
	TierMultipliers: map[mms.ServiceTier]float64{mms.ServiceTierBatch: 0.5},
}

// fakeCommitment is the built-in fake's priority capacity: 40 input
// tokens a minute, so the default prompts show both tiers.
var fakeCommitment = mmstest.PriorityCommitment{Model: "mms-large-1",
	InputTokensPerMinute: 40, OutputTokensPerMinute: 100, Model46OrLater: true}

func main() {
	prompts := os.Args[1:]
	if len(prompts) == 0 {
		prompts = []string{"Name a color.", "Name a fruit.", "Name a tree."}
	}
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, NewWithFake
	// runs the example against the built-in fake, with a small priority
	// commitment.
	client, fake, err := exampleclient.NewWithFake([]mmstest.Option{mmstest.WithPriorityCommitment(fakeCommitment)})
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	// Model ids are opaque to the SDK: say whether yours is version 4.6 or
	// later, which makes US-only inference burn input and output at 1.1.
	burn := mms.PriorityParams{Geo: "us", Model46OrLater: true}
	if err := run(context.Background(), client, "mms-large-1", burn, prompts, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run sends each prompt with inference_geo p.Geo and writes its accounting
// to w.
func run(ctx context.Context, client *mms.Client, model string, p mms.PriorityParams, prompts []string, w io.Writer) error {
	var burned, cost mms.UsageBreakdown
	for _, prompt := range prompts {
		msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
			Model:        model,
			MaxTokens:    256,
			InferenceGeo: p.Geo,
			Messages:     []mms.MessageParam{mms.UserText(prompt)},
		})
		if err != nil {
			return err
		}
		c, err := prices.MessageCost(msg)
		if err != nil {
			return err
		}
		cost = cost.Add(c)
		fmt.Fprintf(w, "%s: %s tier, %d in / %d out tokens, cost %.6f", prompt, msg.Usage.ServiceTier,
			msg.Usage.InputTokens, msg.Usage.OutputTokens, c.Total)
		// Only a reply served at the priority tier drew from the
		// commitment.
		if msg.Usage.ServiceTier == mms.ServiceTierPriority {
			b := msg.Usage.PriorityBurn(p)
			burned = burned.Add(b)
			fmt.Fprintf(w, ", burned %g priority tokens (%g in, %g out)", b.Total, b.Input, b.Output)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "total: %g priority tokens burned, cost %.6f\n", burned.Total, cost.Total)
	return nil
}
