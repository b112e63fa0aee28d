package mms_test

import (
	"fmt"

	"github.com/mms-sdk/mms-go"
)

func ExampleUsage_PriorityBurn() {
	u := mms.Usage{InputTokens: 100, OutputTokens: 20, CacheReadInputTokens: mms.Ptr(1000),
		CacheCreationInputTokens: mms.Ptr(300),
		CacheCreation:            &mms.CacheCreation{Ephemeral5mInputTokens: 200, Ephemeral1hInputTokens: 100},
		ServiceTier:              mms.ServiceTierPriority}
	b := u.PriorityBurn(mms.PriorityParams{Geo: "us", Model46OrLater: true})
	fmt.Println(b.Input, b.Output, b.CacheRead, b.CacheWrite5m, b.CacheWrite1h, b.Total)
	// Output: 110 22 100 250 200 682
}

func ExamplePriceTable_MessageCost() {
	prices := mms.PriceTable{ // per million tokens, your own figures
		Models:          map[string]mms.ModelPrices{"mms-large-1": {Input: 3, Output: 15}},
		TierMultipliers: map[mms.ServiceTier]float64{mms.ServiceTierBatch: 0.5},
	}
	msg := &mms.Message{Model: "mms-large-1", Usage: mms.Usage{InputTokens: 2000, OutputTokens: 400, ServiceTier: mms.ServiceTierBatch}}
	c, err := prices.MessageCost(msg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n", c.Total)
	// Output: 0.0060
}
