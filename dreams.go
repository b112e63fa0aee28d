package mms

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// BetaDreaming is the beta every dreams request carries (/v1/dreams). The
// service adds it itself, merged as a set with the client's and the call's
// betas; it never adds [BetaManagedAgents].
const BetaDreaming = "dreaming-2026-04-21"

// dreamBetas is the endpoint beta list of every dreams request.
var dreamBetas = []string{wire.BetaDreaming}

// DreamsService creates, retrieves, lists, archives and cancels dreams
// (/v1/dreams, a research preview whose shapes may change without notice).
// A dream is an asynchronous job that reads one memory store and the
// transcripts of past sessions and writes a reorganized version of the
// store. Reach it as client.Dreams. Every call sends the
// dreaming-2026-04-21 beta ([BetaDreaming]); option.WithWorkspaceID picks
// the workspace per call.
type DreamsService struct {
	client *Client
}

// DreamStatus is where a dream stands. Unknown values pass through.
type DreamStatus string

// The dream statuses; the last three are final.
const (
	// DreamPending: not started; no outputs, usage zero.
	DreamPending DreamStatus = "pending"
	// DreamRunning: reading and writing; usage grows.
	DreamRunning DreamStatus = "running"
	// DreamCompleted: the output store holds the complete result.
	DreamCompleted DreamStatus = "completed"
	// DreamFailed: see Error; the output store keeps what was written.
	DreamFailed DreamStatus = "failed"
	// DreamCanceled: stopped by [DreamsService.Cancel]; the output store
	// keeps what was written.
	DreamCanceled DreamStatus = "canceled"
)

// Final reports whether the status is final (completed, failed or
// canceled).
func (s DreamStatus) Final() bool {
	return s == DreamCompleted || s == DreamFailed || s == DreamCanceled
}

// Dream is a dream's record (the wire type "dream"). Members this SDK
// version does not model are kept in Extra, so json.Marshal writes a reply
// back without loss.
//
//mms:json type=dream
type Dream struct {
	// ID identifies the dream ("drm_…").
	ID string `json:"id"`
	// Status is where the dream stands.
	Status DreamStatus `json:"status"`
	// Inputs are as requested (session ids sorted).
	Inputs []DreamInput `json:"inputs"`
	// Model is the model, always in object form.
	Model ModelConfig `json:"model"`
	// Instructions are nil when none were given.
	Instructions *string `json:"instructions"`
	// OutputBehavior is where the result goes ([DreamCreateNew] when the
	// request left it out).
	OutputBehavior DreamOutputBehavior `json:"output_behavior"`
	// Outputs holds the output store once it is recorded (empty while
	// pending, and possibly after an early failure or cancel); its content
	// is complete only once the dream completed.
	Outputs []DreamOutput `json:"outputs"`
	// SessionID is the session that runs the dream; nil until it
	// started. Stream its events to watch the dream.
	SessionID *string `json:"session_id"`
	// Usage counts the tokens: zero while pending, growing while running,
	// fixed once completed or failed (a canceled dream's may still move).
	Usage DreamUsage `json:"usage"`
	// Error is why the dream failed; nil unless Status is failed.
	Error *DreamError `json:"error"`
	// CreatedAt is an RFC 3339 string; lists are newest first by it.
	CreatedAt string `json:"created_at"`
	// EndedAt is when a final status was reached; nil before.
	EndedAt *string `json:"ended_at"`
	// ArchivedAt is when the dream was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (d Dream) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, d.CreatedAt) }

// DreamUsage is a dream's token usage.
//
//mms:json
type DreamUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CacheCreationInputTokens covers 5-minute and 1-hour cache writes.
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DreamError is why a dream failed.
//
//mms:json
type DreamError struct {
	// Type is the error's type, such as "timeout" or "internal_error".
	Type string `json:"type"`
	// Message explains it.
	Message string `json:"message"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A DreamInput is what a dream reads: [DreamMemoryStore],
// [DreamSessions] or [UnknownDreamInput], in params and records alike.
type DreamInput interface {
	json.Marshaler
	isDreamInput()
}

var dreamInputUnion = codec.NewUnion[DreamInput]("DreamInput", UnknownDreamInput{}).
	Add("memory_store", DreamMemoryStore{}).
	Add("sessions", DreamSessions{})

// DreamMemoryStore is a memory store (the wire type "memory_store"): the
// store a dream reads, as a [DreamInput], or the store it wrote, as a
// [DreamOutput].
type DreamMemoryStore struct {
	// MemoryStoreID names the store, of the same workspace and not
	// archived. Required.
	MemoryStoreID string `json:"memory_store_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DreamSessions are the sessions whose transcripts a dream reads (the
// wire type "sessions").
type DreamSessions struct {
	// SessionIDs are 1 to 100 distinct sessions of the same workspace.
	SessionIDs []string `json:"session_ids"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownDreamInput keeps an input kind this SDK version cannot name.
type UnknownDreamInput struct {
	Type string
	Raw  json.RawMessage
}

// A DreamOutput is what a dream wrote: [DreamMemoryStore] or
// [UnknownDreamOutput].
type DreamOutput interface {
	json.Marshaler
	isDreamOutput()
}

var dreamOutputUnion = codec.NewUnion[DreamOutput]("DreamOutput", UnknownDreamOutput{}).
	Add("memory_store", DreamMemoryStore{})

// UnknownDreamOutput keeps an output kind this SDK version cannot name.
type UnknownDreamOutput struct {
	Type string
	Raw  json.RawMessage
}

// A DreamOutputBehavior says where a dream writes: [DreamCreateNew],
// [DreamUpdateExisting] or [UnknownDreamOutputBehavior].
type DreamOutputBehavior interface {
	json.Marshaler
	isDreamOutputBehavior()
}

var dreamOutputBehaviorUnion = codec.NewUnion[DreamOutputBehavior]("DreamOutputBehavior", UnknownDreamOutputBehavior{}).
	Add("create_new", DreamCreateNew{}).
	Add("update_existing", DreamUpdateExisting{})

// DreamCreateNew writes the result to a new store of the same workspace
// that starts as a copy of the input, which stays as it was (the wire
// type "create_new"; the default).
type DreamCreateNew struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DreamUpdateExisting writes into the input store itself (the wire type
// "update_existing"). The credential must be allowed to write memory
// stores (else 403), and no other such dream on the store may still be
// running (else 409).
type DreamUpdateExisting struct {
	// MemoryStoreID must be the input store's id. Required.
	MemoryStoreID string `json:"memory_store_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownDreamOutputBehavior keeps a behavior this SDK version cannot
// name.
type UnknownDreamOutputBehavior struct {
	Type string
	Raw  json.RawMessage
}

// DreamCreateParams are the parameters of [DreamsService.Create].
//
//mms:json
type DreamCreateParams struct {
	// Inputs are exactly one [DreamMemoryStore] and one [DreamSessions].
	// Required.
	Inputs []DreamInput `json:"inputs"`
	// Model is the model: an id of 1 to 256 characters, sent as the bare
	// id ([AgentModel]); Speed may only be standard, and Effort and
	// InferenceGeo must be left empty. Required.
	Model ModelConfigParams `json:"model"`
	// Instructions steer how the sessions are read and the store
	// organized, 1 to 4,096 characters; "" sends none.
	Instructions string `json:"instructions,omitzero"`
	// OutputBehavior picks where the result goes; nil leaves the default,
	// [DreamCreateNew].
	OutputBehavior DreamOutputBehavior `json:"output_behavior,omitzero"`
}

// Validate reports the first rule the params break: inputs other than
// exactly one memory store and one sessions input, an empty memory store
// id, no session id, more than 100, an empty or repeated one; a model id
// empty or over 256 characters, a speed other than standard, an effort or
// an inference geo; instructions over 4,096 characters; an
// update_existing output whose store is not the input's.
func (p DreamCreateParams) Validate() error {
	var store *DreamMemoryStore
	var sessions *DreamSessions
	for i, in := range p.Inputs {
		path := fmt.Sprintf("inputs[%d]", i)
		switch in := in.(type) {
		case nil:
			return invalid(path, "must not be nil")
		case DreamMemoryStore:
			if store != nil {
				return invalid(path, "a dream reads exactly one memory_store input")
			}
			if err := requiredID(path+".memory_store_id", in.MemoryStoreID); err != nil {
				return err
			}
			store = &in
		case DreamSessions:
			if sessions != nil {
				return invalid(path, "a dream reads exactly one sessions input")
			}
			if err := validateDreamSessions(path+".session_ids", in.SessionIDs); err != nil {
				return err
			}
			sessions = &in
		}
	}
	switch {
	case store == nil:
		return invalid("inputs", "must hold a memory_store input")
	case sessions == nil:
		return invalid("inputs", "must hold a sessions input")
	}
	if err := validateDreamModel(p.Model); err != nil {
		return err
	}
	if p.Instructions != "" {
		if err := validateLength("instructions", p.Instructions, 1, wire.MaxDreamInstructionsLen); err != nil {
			return err
		}
	}
	if u, ok := p.OutputBehavior.(DreamUpdateExisting); ok && u.MemoryStoreID != store.MemoryStoreID {
		return invalid("output_behavior.memory_store_id", "must be the input store's id %q, got %q", store.MemoryStoreID, u.MemoryStoreID)
	}
	return nil
}

// validateDreamSessions checks 1 to 100 distinct, non-empty session ids.
func validateDreamSessions(path string, ids []string) error {
	if len(ids) == 0 {
		return invalid(path, "must hold at least one session id")
	}
	if err := validateCount(path, len(ids), wire.MaxDreamSessionIDs, "ids"); err != nil {
		return err
	}
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		if err := requiredID(fmt.Sprintf("%s[%d]", path, i), id); err != nil {
			return err
		}
		if seen[id] {
			return invalid(fmt.Sprintf("%s[%d]", path, i), "repeats %q: session ids must be unique", id)
		}
		seen[id] = true
	}
	return nil
}

// validateDreamModel checks a dream's model: an id of 1 to 256
// characters, standard speed only, no other member.
func validateDreamModel(m ModelConfigParams) error {
	if err := requiredID("model.id", m.ID); err != nil {
		return err
	}
	if err := validateLength("model.id", m.ID, 1, wire.MaxDreamModelIDLen); err != nil {
		return err
	}
	switch {
	case m.Speed != "" && m.Speed != ModelSpeedStandard:
		return invalid("model.speed", "dreams accept only %q, got %q", ModelSpeedStandard, m.Speed)
	case m.Effort != "":
		return invalid("model.effort", "is not accepted by dreams")
	case m.InferenceGeo != "":
		return invalid("model.inference_geo", "is not accepted by dreams")
	}
	return nil
}

// Create starts a dream (POST /v1/dreams); the answer is pending with no
// outputs. Poll with [DreamsService.Get] or [DreamsService.Wait] until its
// status is final. The params are checked first (see
// [DreamCreateParams.Validate]). A failed attempt is sent again only when
// it provably started nothing; otherwise the error matches
// [ErrMaybeApplied]: list the dreams before starting another.
func (s *DreamsService) Create(ctx context.Context, p DreamCreateParams, opts ...option.RequestOption) (*Dream, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a dream (GET /v1/dreams/{dream_id}), archived ones too.
func (s *DreamsService) Get(ctx context.Context, dreamID string, opts ...option.RequestOption) (*Dream, error) {
	return s.at(dreamID).get(ctx, opts)
}

// Archive archives a dream whose status is final (POST
// /v1/dreams/{dream_id}/archive); a pending or running one is a 400
// (cancel it first). It cannot be undone, and the dream stays retrievable
// by id. Archiving again returns it unchanged.
func (s *DreamsService) Archive(ctx context.Context, dreamID string, opts ...option.RequestOption) (*Dream, error) {
	return s.at(dreamID).action(ctx, "/archive", nil, opts)
}

// Cancel stops a pending or running dream (POST
// /v1/dreams/{dream_id}/cancel); the answer is canceled unless it
// completed or failed first. Cancelling a canceled dream returns it
// unchanged; a completed or failed one is a 400.
func (s *DreamsService) Cancel(ctx context.Context, dreamID string, opts ...option.RequestOption) (*Dream, error) {
	return s.at(dreamID).action(ctx, "/cancel", nil, opts)
}

// DreamListParams are the parameters of [DreamsService.List] and
// [DreamsService.ListPage].
type DreamListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived dreams too.
	IncludeArchived bool
	// Statuses keeps the dreams in any of these statuses (statuses[]).
	Statuses []DreamStatus
	// CreatedGT and CreatedLT, when not zero, bound the creation time,
	// both exclusive (created_at[gt], created_at[lt]).
	CreatedGT, CreatedLT time.Time
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set, or an empty status.
func (p DreamListParams) Validate() error {
	if err := validateLimit(p.Limit, wire.MaxDreamListLimit); err != nil {
		return err
	}
	return validateFilled("statuses", p.Statuses)
}

func (p DreamListParams) listArgs() listArgs {
	a := archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
	addQueryArray(a.query, "statuses", p.Statuses)
	setTimeFilters(a.query, "created_at", p.CreatedGT, time.Time{}, p.CreatedLT, time.Time{})
	return a
}

// List iterates over the dreams, newest first, fetching pages as it goes
// (GET /v1/dreams, cursor scheme). Nothing is sent before the loop
// starts; ranging again lists again from p.Page; an error is yielded
// once, last.
func (s *DreamsService) List(ctx context.Context, p DreamListParams, opts ...option.RequestOption) iter.Seq2[Dream, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of dreams (GET /v1/dreams). Continue with
// Page set to the page's *NextPage while it is not nil.
func (s *DreamsService) ListPage(ctx context.Context, p DreamListParams, opts ...option.RequestOption) (*Page[Dream], error) {
	return s.all().listPage(ctx, p, opts)
}

// DreamWaitParams are the parameters of [DreamsService.Wait].
type DreamWaitParams struct {
	// PollInterval is the wait after the first poll (default 1 s); each
	// following wait doubles, up to MaxPollInterval.
	PollInterval time.Duration
	// MaxPollInterval caps the wait between polls (default 30 s, or
	// PollInterval when that is longer).
	MaxPollInterval time.Duration
	// OnPoll, when set, is called on Wait's goroutine with each dream a
	// poll read, the final one included.
	OnPoll func(d *Dream)
}

// Validate refuses negative intervals, and a PollInterval longer than an
// explicit MaxPollInterval.
func (p DreamWaitParams) Validate() error {
	return BatchWaitParams{PollInterval: p.PollInterval, MaxPollInterval: p.MaxPollInterval}.Validate()
}

// Wait polls the dream with [DreamsService.Get] until its status is final
// (completed, failed or canceled) and returns it. The first poll is
// immediate; then it waits p.PollInterval, doubling up to
// p.MaxPollInterval (1 s to 30 s by default). When ctx ends or a poll
// fails, Wait returns the error with the last dream it saw (nil if none).
func (s *DreamsService) Wait(ctx context.Context, dreamID string, p DreamWaitParams, opts ...option.RequestOption) (*Dream, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	e := s.at(dreamID)
	return pollUntil(ctx, p.PollInterval, p.MaxPollInterval, p.OnPoll,
		func() (*Dream, error) { return e.get(ctx, opts) },
		func(d *Dream) (bool, string) { return d.Status.Final(), string(d.Status) },
		"dream "+dreamID)
}

// all is the dreams' endpoint (/v1/dreams).
func (s *DreamsService) all() endpoint[Dream] {
	return endpoint[Dream]{c: s.client, path: "/v1/dreams", betas: dreamBetas}
}

// at is one dream's endpoint (/v1/dreams/{dream_id}).
func (s *DreamsService) at(dreamID string) endpoint[Dream] {
	return s.all().id("dream_id", dreamID)
}
