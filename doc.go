// Package mms is the Go client for the Model Messaging Service: Messages
// (with streaming and token counting), Message Batches, Models, Files and
// Skills, and the managed-agents resources: Agents, Environments (with the
// work queue of self-hosted ones), Sessions (with their events, resources
// and threads), Vaults and their credentials, Memory Stores (with their
// memories and versions), Tunnels and User Profiles. Every one of these is
// typed; an endpoint this SDK version does not know yet is reached with
// [Client.Do] through the same pipeline.
//
// Build a client from options, then call the services hanging off it:
//
//	client, err := mms.NewClient(option.WithAPIKey(os.Getenv("MY_KEY")), option.WithBaseURL("https://api.example.com"))
//	if err != nil {
//		return err
//	}
//	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
//		Model:     "mms-large-1",
//		MaxTokens: 1024,
//		Messages:  []mms.MessageParam{mms.UserText("Hello")},
//	})
//
// Every polymorphic JSON value is a sealed interface with one Go type per
// wire type and an Unknown variant that keeps the raw JSON, so a value the
// server adds later never breaks decoding. Package [github.com/mms-sdk/mms-go/mmstest]
// is an in-process fake of the service for tests and demos.
//
// # Extra
//
// Most wire types have a field Extra of type [Extra]: what the value holds
// beyond its modelled fields, so a reply re-encodes to the JSON it came
// from.
package mms
