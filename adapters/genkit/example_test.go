package mmsgenkit_test

import (
	"context"
	"fmt"
	"log"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	mms "github.com/mms-sdk/mms-go"
	mmsgenkit "github.com/mms-sdk/mms-go/adapters/genkit"
	"github.com/mms-sdk/mms-go/mmstest"
)

// readme is the README's program (main's body, with ctx
// context.Background() there): compiled here, run by Example.
func readme(ctx context.Context, client *mms.Client) {
	g := genkit.Init(ctx, genkit.WithPlugins(&mmsgenkit.Plugin{Client: client}))
	text, err := genkit.GenerateText(ctx, g,
		ai.WithModelName("mms/mms-large-1"),
		ai.WithPrompt("Hello!"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(text)
}

// The shortest program: the plugin, then Genkit's own calls. (With the
// service, the client is mms.NewClient(), the key from $VENDOR_API_KEY.)
func Example() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background()) // ends genkit.Init's signal watch
	defer cancel()
	readme(ctx, client)
	// Output: You said: Hello!
}

// Thinking with a budget; the reasoning part keeps its signature, so the
// history can go back to the service.
func ExampleConfig() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := genkit.Init(ctx, genkit.WithPlugins(&mmsgenkit.Plugin{Client: client}))
	resp, err := genkit.Generate(ctx, g,
		ai.WithModelName("mms/mms-large-1"),
		ai.WithConfig(&mmsgenkit.Config{MaxOutputTokens: 2048, ThinkingBudget: 1024}),
		ai.WithPrompt("Think about tea."))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Reasoning())
	fmt.Println(resp.Text())
	// Output:
	// The user said: Think about tea.
	// You said: Think about tea.
}
