// Command demo tours mms-go against mmstest, the SDK's in-process fake of
// the service: no key, no network. Run it with
//
//	go run ./examples/demo
package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func main() {
	fake := exampleclient.StartFake("the demo needs no credential")
	defer fake.Close()
	if err := run(context.Background(), fake.Server, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run is the whole tour, against srv; main_test.go runs it too, so the
// demo cannot rot.
func run(ctx context.Context, srv *mmstest.Server, out io.Writer) error {
	fmt.Fprintf(out, "fake service listening at %s\n\n", srv.URL)

	client, err := mms.NewClient(
		option.WithAPIKey(mmstest.DefaultAPIKey),
		option.WithBaseURL(srv.URL),
	)
	if err != nil {
		return err
	}
	for _, step := range []struct {
		title string
		fn    func(context.Context, io.Writer, *mms.Client, *mmstest.Server) error
	}{
		{"A raw call through client.Do", rawCall},
		{"An API error, with its request id", apiError},
		{"A retry, visible in the response metadata", retry},
		{"A conversation with thinking and a tool call", conversation},
		{"A reply, streamed as it is written", streaming},
		{"The tool runner, and a reply shaped as a Go type", toolRunner},
		{"Models, and a batch run to the end", modelsAndBatch},
		{"A document: upload, ask with citations, download, delete", document},
		{"Managed agents: an agent, a new version, a session, a worker's queue", managedAgents},
	} {
		fmt.Fprintf(out, "== %s\n", step.title)
		if err := step.fn(ctx, out, client, srv); err != nil {
			return fmt.Errorf("%s: %w", step.title, err)
		}
		fmt.Fprintln(out)
	}
	return nil
}

func rawCall(ctx context.Context, out io.Writer, c *mms.Client, _ *mmstest.Server) error {
	var page struct {
		Data []struct {
			ID          string `json:"id"`
			DisplayName string `json:"display_name"`
		} `json:"data"`
		HasMore bool `json:"has_more"`
	}
	var md mms.ResponseMetadata
	if err := c.Do(ctx, "GET", "/v1/models?limit=2", nil, &page, option.WithResponseMetadata(&md)); err != nil {
		return err
	}
	for _, m := range page.Data {
		fmt.Fprintf(out, "model %-14s %s\n", m.ID, m.DisplayName)
	}
	fmt.Fprintf(out, "has_more=%v  request-id=%s\n", page.HasMore, md.RequestID)
	return nil
}

func apiError(ctx context.Context, out io.Writer, c *mms.Client, _ *mmstest.Server) error {
	err := c.Do(ctx, "GET", "/v1/models/no-such-model", nil, nil)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("expected an API error, got %v", err)
	}
	fmt.Fprintf(out, "error:      %v\n", apiErr)
	fmt.Fprintf(out, "status:     %d\n", apiErr.StatusCode)
	fmt.Fprintf(out, "type:       %s (errors.Is ErrNotFound: %v)\n", apiErr.Type, errors.Is(err, mms.ErrNotFound))
	fmt.Fprintf(out, "request id: %s\n", apiErr.RequestID)
	return nil
}

func retry(ctx context.Context, out io.Writer, c *mms.Client, srv *mmstest.Server) error {
	srv.InjectFault(mmstest.Fault{Path: "/v1/models", Statuses: []int{529}, RetryAfterMs: "20"})
	var md mms.ResponseMetadata
	var model json.RawMessage
	if err := c.Do(ctx, "GET", "/v1/models/mms-large-1", nil, &model, option.WithResponseMetadata(&md)); err != nil {
		return err
	}
	fmt.Fprintln(out, "the fake answered 529 overloaded_error once; the SDK waited 20 ms (retry-after-ms) and retried")
	fmt.Fprintf(out, "attempts=%d status=%d request-id=%s\n", md.Attempts, md.StatusCode, md.RequestID)
	return nil
}

// conversation runs one agent-loop turn: the model thinks, calls a tool, and
// gets the tool's result back in the next request.
func conversation(ctx context.Context, out io.Writer, c *mms.Client, _ *mmstest.Server) error {
	weather := mms.CustomTool{
		Name:        "get_weather",
		Description: "Current weather for a city.",
		InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
	}
	p := mms.MessageCreateParams{
		Model:     "mms-large-1",
		MaxTokens: 2048,
		Thinking:  mms.ThinkingConfigEnabled{BudgetTokens: 1024},
		Tools:     mms.Tools{weather},
		Messages:  []mms.MessageParam{mms.UserText("What is the weather in Paris? Use get_weather.")},
	}
	msg, err := c.Messages.Create(ctx, p)
	if err != nil {
		return err
	}
	for _, block := range msg.Content {
		switch b := block.(type) {
		case mms.ThinkingBlock:
			fmt.Fprintf(out, "thinking:  %q (signed)\n", b.Thinking)
		case mms.TextBlock:
			fmt.Fprintf(out, "text:      %q\n", b.Text)
		case mms.ToolUseBlock:
			fmt.Fprintf(out, "tool call: %s(%s) id=%s\n", b.Name, b.Input, b.ID)
		}
	}
	fmt.Fprintf(out, "stop:      %s, usage in=%d out=%d\n", msg.StopReason, msg.Usage.InputTokens, msg.Usage.OutputTokens)

	// The reply goes back unchanged (signature included), plus the result.
	call := msg.ToolUses()[0]
	p.Messages = append(p.Messages, msg.ToParam(),
		mms.UserMessage(mms.ToolResult(call.ID, "18°C, light rain", false)))
	next, err := c.Messages.Create(ctx, p)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "after the tool result: %q\n", next.Text())
	return nil
}

// streaming prints a reply as its text deltas arrive; the accumulator
// builds the final Message from the same events.
// toolRunner runs two typed tools in parallel (the fake is scripted to call
// both, one for a city without data), then asks for a structured reply.
func toolRunner(ctx context.Context, out io.Writer, c *mms.Client, srv *mmstest.Server) error {
	type cityIn struct {
		City string `json:"city" description:"City name"`
	}
	temps := map[string]int{"Paris": 18, "Oslo": 9}
	weather := mms.NewTool("get_weather", "Temperature in °C", func(ctx context.Context, in cityIn) (int, error) {
		t, ok := temps[in.City]
		if !ok {
			return 0, fmt.Errorf("no data for %s", in.City)
		}
		return t, nil
	})
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}, {Name: "get_weather", Input: `{"city":"Atlantis"}`}}},
		mmstest.Turn{Text: "Paris: 18°C; no data for Atlantis."},
	)
	runner := c.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 512,
			Messages: []mms.MessageParam{mms.UserText("Weather in Paris and Atlantis?")}},
		Tools: []mms.RunnableTool{weather},
	})
	requests := 0
	for turn, err := range runner.Turns(ctx) {
		if err != nil {
			return err
		}
		requests = turn.Iteration
		for _, call := range turn.Calls {
			fmt.Fprintf(out, "turn %d: %s%s -> %s (error: %v)\n", turn.Iteration, call.Use.Name, call.Use.Input,
				call.Result.Content[0].(mms.TextBlock).Text, call.Err != nil)
		}
	}
	fmt.Fprintf(out, "answer:  %q after %d requests\n", runner.Message().Text(), requests)

	type forecast struct {
		City string `json:"city"`
		Sky  string `json:"sky" enum:"clear,cloudy,rain"`
		High int    `json:"high_c"`
	}
	format, err := mms.OutputFormatFor[forecast]()
	if err != nil {
		return err
	}
	msg, err := c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 512,
		Messages:     []mms.MessageParam{mms.UserText("Tomorrow in Paris?")},
		OutputConfig: &mms.OutputConfig{Format: format}})
	if err != nil {
		return err
	}
	f, err := mms.ParseOutput[forecast](msg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "structured: %s -> %+v\n", msg.Text(), f)
	return nil
}

func streaming(ctx context.Context, out io.Writer, c *mms.Client, _ *mmstest.Server) error {
	var acc mms.MessageAccumulator
	stream := c.Messages.Stream(ctx, mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserText("Tell me something about streams.")},
	})
	fmt.Fprint(out, "deltas: ")
	for text, err := range acc.Text(stream) {
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "[%s]", text)
	}
	msg := acc.Message()
	fmt.Fprintf(out, "\nfinal:  %q (%s, %d output tokens)\n", msg.Text(), msg.StopReason, msg.Usage.OutputTokens)
	return nil
}

// modelsAndBatch lists the models (paging under the hood) and runs a small
// batch through to its results.
func modelsAndBatch(ctx context.Context, out io.Writer, c *mms.Client, srv *mmstest.Server) error {
	var ids []string
	for m, err := range c.Models.List(ctx, mms.ModelListParams{Limit: 2}) {
		if err != nil {
			return err
		}
		ids = append(ids, m.ID)
	}
	fmt.Fprintf(out, "models (2 per page): %s\n", strings.Join(ids, ", "))

	srv.SetBatchProcessingTime(200 * time.Millisecond)
	var reqs []mms.BatchRequest
	for i, q := range []string{"first question", "second question", "third question"} {
		reqs = append(reqs, mms.BatchRequest{
			CustomID: fmt.Sprintf("q-%d", i+1),
			Params: mms.MessageCreateParams{Model: "mms-small-1", MaxTokens: 64,
				Messages: []mms.MessageParam{mms.UserText(q)}},
		})
	}
	batch, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: reqs})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "batch %s is %s\n", batch.ID, batch.ProcessingStatus)
	batch, err = c.Messages.Batches.Wait(ctx, batch.ID, mms.BatchWaitParams{PollInterval: 100 * time.Millisecond})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "batch %s is %s: %d succeeded\n", batch.ID, batch.ProcessingStatus, batch.RequestCounts.Succeeded)
	for r, err := range c.Messages.Batches.Results(ctx, batch.ID) {
		if err != nil {
			return err
		}
		if ok, isOK := r.Result.(mms.SucceededBatchResult); isOK {
			fmt.Fprintf(out, "  %s: %q\n", r.CustomID, ok.Message.Text())
		}
	}
	return nil
}

// document uploads a text document, asks about it by file id, downloads it
// back (checking it is the same bytes) and deletes it.
func document(ctx context.Context, out io.Writer, c *mms.Client, srv *mmstest.Server) error {
	const text = "The mms-go SDK streams uploads: a file is never held in memory."
	f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "notes.txt", Reader: strings.NewReader(text)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "uploaded %s (%s, %d bytes)\n", f.ID, f.MimeType, f.SizeBytes)

	doc := mms.DocumentFromFile(f.ID)
	doc.Title = mms.Ptr("notes")
	doc.Citations = &mms.CitationsConfig{Enabled: mms.Ptr(true)}
	msg, err := c.Messages.Create(ctx, mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserMessage(doc, mms.TextBlock{Text: "What does the document say?"})},
	})
	if err != nil {
		return err
	}
	for _, block := range msg.Content {
		tb, ok := block.(mms.TextBlock)
		if !ok {
			continue
		}
		fmt.Fprintf(out, "answer: %q\n", tb.Text)
		for _, c := range tb.Citations {
			if loc, ok := c.(mms.CharLocationCitation); ok {
				fmt.Fprintf(out, "  cites %q: characters %d-%d of document %d (%s)\n",
					loc.CitedText, loc.StartCharIndex, loc.EndCharIndex, loc.DocumentIndex, *loc.FileID)
			}
		}
	}

	srv.SetFileDownloadable(f.ID, true) // uploads are not downloadable on the service either
	dl, err := c.Files.Download(ctx, f.ID)
	if err != nil {
		return err
	}
	h := sha256.New()
	_, err = io.Copy(h, dl.Body)
	dl.Body.Close()
	if err != nil {
		return err
	}
	same := fmt.Sprintf("%x", h.Sum(nil)) == fmt.Sprintf("%x", sha256.Sum256([]byte(text)))
	fmt.Fprintf(out, "downloaded %s: same bytes: %v\n", dl.ContentType, same)
	if _, err := c.Files.Delete(ctx, f.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "deleted %s\n", f.ID)
	return nil
}

// managedAgents creates an agent, updates it (version 2, guarded by the
// version read: a stale one is refused), starts a session of it in a
// self-hosted environment and polls that environment's work queue as a
// worker would.
func managedAgents(ctx context.Context, out io.Writer, c *mms.Client, _ *mmstest.Server) error {
	agent, err := c.Agents.Create(ctx, mms.AgentCreateParams{
		Name: "helper", Model: mms.AgentModel("mms-large-1"),
		Tools: []mms.AgentTool{mms.AgentCustomTool{Name: "get_weather", Description: "The weather in a city.",
			InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
	})
	if err != nil {
		return err
	}
	v1 := agent.Version
	agent, err = c.Agents.Update(ctx, agent.ID, mms.AgentUpdateParams{Version: v1, System: mms.Set("Be brief.")})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "agent %s: version %d -> %d\n", agent.ID, v1, agent.Version)
	_, err = c.Agents.Update(ctx, agent.ID, mms.AgentUpdateParams{Version: v1, System: mms.Set("stale")}, option.WithMaxRetries(0))
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("a stale version was accepted: %v", err)
	}
	fmt.Fprintf(out, "an update from version %d is refused: %d %s\n", v1, apiErr.StatusCode, apiErr.Type)

	env, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "my-machines", Config: mms.SelfHostedEnvironmentConfig{}})
	if err != nil {
		return err
	}
	sess, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(agent.ID), EnvironmentID: env.ID,
		InitialEvents: []mms.SessionEventParams{mms.NewUserMessageEvent("What is the weather in Paris?")}})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "session %s on agent version %d: %s\n", sess.ID, sess.Agent.Version, sess.Status)
	work, err := c.Environments.Work.Poll(ctx, env.ID, mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(0), WorkerID: "worker-1"})
	if err != nil {
		return err
	}
	if d, ok := work.Data.(mms.WorkSession); ok {
		fmt.Fprintf(out, "worker-1 polled %s: run session %s (%s; secret %v)\n", work.ID, d.ID, work.State, *work.Secret)
	}
	return nil
}
