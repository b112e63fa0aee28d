package mms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

func sessionIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("sesn_%d", i)
	}
	return ids
}

// TestDreamCreateParamsValidate: every rule of §3.3, on both sides of
// each limit.
func TestDreamCreateParamsValidate(t *testing.T) {
	store := mms.DreamMemoryStore{MemoryStoreID: "memstore_1"}
	valid := func() mms.DreamCreateParams { return dreamParams("memstore_1", sessionIDs(1)) }
	for name, c := range map[string]struct {
		edit  func(p *mms.DreamCreateParams)
		field string
	}{
		"valid":             {func(p *mms.DreamCreateParams) {}, ""},
		"no inputs":         {func(p *mms.DreamCreateParams) { p.Inputs = nil }, "inputs"},
		"no store":          {func(p *mms.DreamCreateParams) { p.Inputs = p.Inputs[1:] }, "inputs"},
		"no sessions":       {func(p *mms.DreamCreateParams) { p.Inputs = p.Inputs[:1] }, "inputs"},
		"two stores":        {func(p *mms.DreamCreateParams) { p.Inputs = append(p.Inputs, store) }, "inputs[2]"},
		"two sessions":      {func(p *mms.DreamCreateParams) { p.Inputs = append(p.Inputs, p.Inputs[1]) }, "inputs[2]"},
		"nil input":         {func(p *mms.DreamCreateParams) { p.Inputs = append(p.Inputs, nil) }, "inputs[2]"},
		"empty store id":    {func(p *mms.DreamCreateParams) { p.Inputs[0] = mms.DreamMemoryStore{} }, "inputs[0].memory_store_id"},
		"0 session ids":     {func(p *mms.DreamCreateParams) { p.Inputs[1] = mms.DreamSessions{} }, "inputs[1].session_ids"},
		"100 session ids":   {func(p *mms.DreamCreateParams) { p.Inputs[1] = mms.DreamSessions{SessionIDs: sessionIDs(100)} }, ""},
		"101 session ids":   {func(p *mms.DreamCreateParams) { p.Inputs[1] = mms.DreamSessions{SessionIDs: sessionIDs(101)} }, "inputs[1].session_ids"},
		"empty session id":  {func(p *mms.DreamCreateParams) { p.Inputs[1] = mms.DreamSessions{SessionIDs: []string{""}} }, "inputs[1].session_ids[0]"},
		"repeated session":  {func(p *mms.DreamCreateParams) { p.Inputs[1] = mms.DreamSessions{SessionIDs: []string{"a", "a"}} }, "inputs[1].session_ids[1]"},
		"no model":          {func(p *mms.DreamCreateParams) { p.Model = mms.ModelConfigParams{} }, "model.id"},
		"model id 256":      {func(p *mms.DreamCreateParams) { p.Model = mms.AgentModel(strings.Repeat("m", 256)) }, ""},
		"model id 257":      {func(p *mms.DreamCreateParams) { p.Model = mms.AgentModel(strings.Repeat("m", 257)) }, "model.id"},
		"standard speed":    {func(p *mms.DreamCreateParams) { p.Model.Speed = mms.ModelSpeedStandard }, ""},
		"fast speed":        {func(p *mms.DreamCreateParams) { p.Model.Speed = mms.ModelSpeedFast }, "model.speed"},
		"effort":            {func(p *mms.DreamCreateParams) { p.Model.Effort = mms.EffortLow }, "model.effort"},
		"inference geo":     {func(p *mms.DreamCreateParams) { p.Model.InferenceGeo = "us" }, "model.inference_geo"},
		"instructions 4096": {func(p *mms.DreamCreateParams) { p.Instructions = strings.Repeat("i", 4096) }, ""},
		"instructions 4097": {func(p *mms.DreamCreateParams) { p.Instructions = strings.Repeat("i", 4097) }, "instructions"},
		"update the input": {func(p *mms.DreamCreateParams) {
			p.OutputBehavior = mms.DreamUpdateExisting{MemoryStoreID: "memstore_1"}
		}, ""},
		"update another store": {func(p *mms.DreamCreateParams) {
			p.OutputBehavior = mms.DreamUpdateExisting{MemoryStoreID: "memstore_2"}
		}, "output_behavior.memory_store_id"},
		"create new": {func(p *mms.DreamCreateParams) { p.OutputBehavior = mms.DreamCreateNew{} }, ""},
	} {
		p := valid()
		c.edit(&p)
		checkRule(t, name, p.Validate(), c.field)
	}
}

// TestDreamListAndWaitParamsValidate: the list's and Wait's rules.
func TestDreamListAndWaitParamsValidate(t *testing.T) {
	for name, c := range map[string]struct {
		err   error
		field string
	}{
		"limit 100":          {mms.DreamListParams{Limit: 100}.Validate(), ""},
		"limit 101":          {mms.DreamListParams{Limit: 101}.Validate(), "limit"},
		"statuses":           {mms.DreamListParams{Statuses: []mms.DreamStatus{mms.DreamRunning}}.Validate(), ""},
		"empty status":       {mms.DreamListParams{Statuses: []mms.DreamStatus{""}}.Validate(), "statuses[0]"},
		"wait":               {mms.DreamWaitParams{PollInterval: time.Second}.Validate(), ""},
		"wait negative":      {mms.DreamWaitParams{PollInterval: -1}.Validate(), "poll_interval"},
		"wait over the ceil": {mms.DreamWaitParams{PollInterval: 2 * time.Second, MaxPollInterval: time.Second}.Validate(), "poll_interval"},
	} {
		checkRule(t, name, c.err, c.field)
	}
}

// TestDreamsRefuseBeforeSending: broken params and ids send nothing.
func TestDreamsRefuseBeforeSending(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv)
	ctx := context.Background()
	var ve *mms.ValidationError
	for name, err := range map[string]error{
		"create":  func() error { _, err := c.Dreams.Create(ctx, mms.DreamCreateParams{}); return err }(),
		"get":     func() error { _, err := c.Dreams.Get(ctx, ""); return err }(),
		"cancel":  func() error { _, err := c.Dreams.Cancel(ctx, ""); return err }(),
		"archive": func() error { _, err := c.Dreams.Archive(ctx, ""); return err }(),
		"wait":    func() error { _, err := c.Dreams.Wait(ctx, "drm_1", mms.DreamWaitParams{PollInterval: -1}); return err }(),
		"list": func() error {
			_, err := c.Dreams.ListPage(ctx, mms.DreamListParams{Limit: 101})
			return err
		}(),
	} {
		if !errors.As(err, &ve) {
			t.Errorf("%s: %v, want a *ValidationError", name, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}

// TestDreamWaitEndsWithContext: Wait returns the last dream it saw and the
// context's error when the context ends first.
func TestDreamWaitEndsWithContext(t *testing.T) {
	f, sessions := dreamFake(t)
	d, err := f.c.Dreams.Create(context.Background(), dreamParams(f.memoryStore, sessions))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	polls := 0
	last, err := f.c.Dreams.Wait(ctx, d.ID, mms.DreamWaitParams{PollInterval: 10 * time.Millisecond, OnPoll: func(*mms.Dream) { polls++ }})
	if !errors.Is(err, context.DeadlineExceeded) || last == nil || last.Status != mms.DreamPending || polls < 2 {
		t.Errorf("Wait: %+v %v after %d polls", last, err, polls)
	}
}
