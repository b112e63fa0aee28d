package vertex_test

import (
	"context"
	"fmt"
	"log"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/vertex"
	"github.com/mms-sdk/mms-go/vertex/vertextest"
)

// A program passes vertex.WithProject to mms.NewClient; with Application
// Default Credentials that is all:
//
//	client, err := mms.NewClient(vertex.WithProject("us-east5", "my-project"))
//
// Here the client talks to mmstest behind Vertex AI's front, with the
// front's fake tokens.
func ExampleWithProject() {
	tokens := &vertextest.TokenSource{}
	srv := mmstest.NewServer(mmstest.WithPlatform(vertextest.Front(tokens)))
	defer srv.Close()

	client, err := mms.NewClient(
		vertex.WithProject(vertextest.Region, vertextest.Project, vertex.WithTokenSource(tokens)),
		option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
	if err != nil {
		log.Fatal(err)
	}
	msg, err := client.Messages.Create(context.Background(), mms.MessageCreateParams{
		Model:     "mms-large-1",
		MaxTokens: 64,
		Messages:  []mms.MessageParam{mms.UserText("Hello")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Content[0].(mms.TextBlock).Text)
	// Output: You said: Hello
}
