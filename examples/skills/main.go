// Command skills uploads a skill (a directory with a SKILL.md), has the
// model use it in a code-execution container, and deletes it. Copy it into
// your program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/skills ./my-skill "Use my skill on this."
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/skills
//
// With no directory it uploads the haiku skill embedded below.
package main

import (
	"context"
	"embed"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

//go:embed haiku
var sample embed.FS

func main() {
	files, err := mms.SkillFilesFromFS(sample, "haiku")
	if len(os.Args) > 1 {
		files, err = mms.SkillFilesFromDir(os.Args[1])
	}
	if err != nil {
		log.Fatal(err)
	}
	prompt := "Write a poem about the sea."
	if len(os.Args) > 2 {
		prompt = strings.Join(os.Args[2:], " ")
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
	if err := run(context.Background(), client, model, files, prompt, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run uploads the skill, asks prompt with it loaded, writes the reply to w
// and deletes the skill again.
func run(ctx context.Context, client *mms.Client, model string, files []mms.SkillFile, prompt string, w io.Writer) error {
	// The files are checked (one top-level directory holding a SKILL.md)
	// before anything is sent; the name and description come from SKILL.md.
	skill, err := client.Skills.Create(ctx, mms.SkillCreateParams{DisplayTitle: "Example skill", Files: files})
	if err != nil {
		return fmt.Errorf("uploading the skill: %w", err)
	}
	fmt.Fprintf(w, "uploaded %s (%s)\n", *skill.DisplayTitle, skill.Source)
	defer func() {
		// A real program keeps its skills; the example cleans up.
		if _, err := client.Skills.Delete(context.WithoutCancel(ctx), skill.ID); err != nil {
			log.Printf("deleting skill %s: %v", skill.ID, err)
		}
	}()

	// Skills run in a code-execution container: load the skill into it
	// and give the model the code-execution tool.
	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 2048,
		Container: &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: skill.ID, Version: "latest"}}},
		Tools:     mms.Tools{mms.CodeExecutionTool{Version: mms.CodeExecution20260120}},
		Messages:  []mms.MessageParam{mms.UserText(prompt)},
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, msg.Text())
	if msg.Container != nil {
		// Pass this id as ContainerParam.ID to reuse the container (and its
		// files) in the next request.
		fmt.Fprintf(w, "container %s\n", msg.Container.ID)
	}
	return nil
}
