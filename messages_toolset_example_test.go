package mms_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

// Typed computer and browser toolset calls: the fake service, scripted to
// play the model, calls three actions; the client switches on each call's
// action, answers it (a browser call with the browser's state), and sends
// the results back.
func ExampleToolUseBlock_ComputerAction() {
	click, _ := json.Marshal(mms.ComputerLeftClick{Coordinate: []int{640, 400}})
	nav, _ := json.Marshal(mms.BrowserNavigate{URL: "https://example.com/"})
	srv := mmstest.NewServer(mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{
			{Toolset: mms.ToolsetNameComputer, Name: "screenshot"},
			{Toolset: mms.ToolsetNameComputer, Name: "left_click", Input: string(click)},
			{Toolset: mms.ToolsetNameBrowser, Name: "navigate", Input: string(nav)},
		}},
		mmstest.Turn{Text: "Done."},
	))
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	params := mms.MessageCreateParams{
		Model:     "mms-large-1",
		MaxTokens: 1024,
		Messages:  []mms.MessageParam{mms.UserText("Open example.com")},
		Tools: mms.Tools{
			mms.ComputerToolset{Version: mms.ComputerToolset20260801},
			mms.BrowserToolset{Version: mms.BrowserToolset20260801},
		},
	}
	msg, err := client.Messages.Create(ctx, params)
	if err != nil {
		log.Fatal(err)
	}

	var results []mms.ContentBlock
	for _, c := range msg.Content {
		use, ok := c.(mms.ToolUseBlock)
		if !ok {
			continue
		}
		switch use.ToolsetName {
		case mms.ToolsetNameComputer:
			a, err := use.ComputerAction()
			if err != nil {
				log.Fatal(err)
			}
			if err := a.Validate(); err != nil {
				results = append(results, mms.ToolResult(use.ID, err.Error(), true))
				continue
			}
			switch a := a.(type) {
			case mms.ComputerScreenshot:
				fmt.Println("computer: screenshot")
			case mms.ComputerLeftClick:
				fmt.Println("computer: left click at", a.Coordinate)
			case mms.UnknownComputerAction:
				fmt.Println("computer: unknown action", a.Type)
			}
			results = append(results, mms.ToolResult(use.ID, "ok", false))
		case mms.ToolsetNameBrowser:
			a, err := use.BrowserAction()
			if err != nil {
				log.Fatal(err)
			}
			if nav, ok := a.(mms.BrowserNavigate); ok {
				fmt.Println("browser: navigate to", nav.URL)
				results = append(results, mms.ToolResultBlocks(use.ID, false, mms.BrowserStateBlock{
					Tabs: []mms.BrowserTab{{TabID: "tab_1", Title: "Example Domain", URL: nav.URL, Active: true}},
				}))
			}
		}
	}
	params.Messages = append(params.Messages, msg.ToParam(), mms.UserMessage(results...))
	final, err := client.Messages.Create(ctx, params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(final.Text())
	// Output:
	// computer: screenshot
	// computer: left click at [640 400]
	// browser: navigate to https://example.com/
	// Done.
}
