package mms_test

import (
	"context"
	"fmt"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// A compaction turn: the conversation is summarized into one signed block,
// which then opens the conversation in place of the messages it replaces.
func ExampleCompaction() {
	srv := mmstest.NewServer() // stands in for the service
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	conversation := []mms.MessageParam{
		mms.UserText("Plan a three-day trip to Bergen in June."),
		mms.AssistantText("Day one: the fish market and Bryggen."),
	}

	// The compaction request (beta compact-2026-09-04, added automatically).
	reply, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 1024, Messages: conversation,
		Compaction: &mms.Compaction{Instructions: "Keep the dates."},
	})
	if err != nil {
		panic(err)
	}
	block := reply.Content[0].(mms.CompactionBlock)
	fmt.Println(reply.StopReason, block.Signature != nil, len(block.ToolChanges))
	fmt.Println(strings.Split(*block.Content, "\n")[0])

	// Later turns: the reply appended, then FromLatestCompaction drops what
	// the summary replaces.
	conversation = append(conversation, mms.MessageParam{Role: mms.RoleAssistant, Content: reply.Content},
		mms.UserText("And day two?"))
	conversation = mms.FromLatestCompaction(conversation)
	fmt.Println(len(conversation), "messages")
	next, err := client.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024, Messages: conversation})
	if err != nil {
		panic(err)
	}
	fmt.Println(next.StopReason)
	// Output:
	// compaction true 0
	// Summary of the conversation (2 messages).
	// 2 messages
	// end_turn
}
