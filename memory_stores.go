package mms

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"time"
	"unicode"

	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// BetaAgentMemory is the beta every memory-store request carries
// (/v1/memory_stores). It replaces [BetaManagedAgents] on these endpoints:
// the service refuses a request carrying both.
const BetaAgentMemory = "agent-memory-2026-07-22"

// memoryBetas is the endpoint beta list of every memory-store request.
var memoryBetas = []string{wire.BetaAgentMemory}

// memoryEndpoint is the memory-store endpoint at path (escaped), the beta
// added, answering a T; query (nil for none) goes with every request.
func memoryEndpoint[T any](c *Client, path string, query url.Values) endpoint[T] {
	return endpoint[T]{c: c, path: path, betas: memoryBetas, query: query}
}

// MemoryStoresService creates, retrieves, updates, lists, archives and
// deletes memory stores (/v1/memory_stores): per-workspace trees of text
// files that sessions mount and agents read and write. Memories manages a
// store's files, Versions their history. Reach it as client.MemoryStores.
// Every call sends the agent-memory-2026-07-22 beta ([BetaAgentMemory]),
// merged with the caller's betas, and not the managed-agents beta;
// option.WithWorkspaceID picks the workspace per call.
type MemoryStoresService struct {
	client *Client
	// Memories creates, retrieves, updates, lists and deletes memories.
	Memories *MemoriesService
	// Versions retrieves, lists and redacts memory versions.
	Versions *MemoryVersionsService
}

// newMemoryStoresService builds the service and its sub-services.
func newMemoryStoresService(c *Client) *MemoryStoresService {
	return &MemoryStoresService{client: c, Memories: &MemoriesService{client: c}, Versions: &MemoryVersionsService{client: c}}
}

// MemoryStore is a memory store's record (the wire type "memory_store").
// Members this SDK version does not model are kept in Extra.
//
//mms:json type=memory_store
type MemoryStore struct {
	// ID identifies the store ("memstore_…").
	ID string `json:"id"`
	// Name is the store's name; sessions mount it under
	// /mnt/memory/<slug of the name>.
	Name string `json:"name"`
	// Description is shown to the agent; "" when unset or absent.
	Description string `json:"description,omitzero"`
	// Metadata is the caller's key-value pairs, not shown to the agent;
	// nil when absent.
	Metadata map[string]string `json:"metadata,omitzero"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them (see [MemoryStore.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the store was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (m MemoryStore) Created() (time.Time, error) {
	return time.Parse(time.RFC3339Nano, m.CreatedAt)
}

// MemoryStoreDeleted is the answer to [MemoryStoresService.Delete] (the
// wire type "memory_store_deleted").
//
//mms:json type=memory_store_deleted
type MemoryStoreDeleted struct {
	// ID is the deleted store's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Limits of a memory store's members.
const (
	maxMemoryStoreNameLen        = 255
	maxMemoryStoreDescriptionLen = 1024
)

// MemoryStoreCreateParams are the parameters of [MemoryStoresService.Create].
//
//mms:json
type MemoryStoreCreateParams struct {
	// Name names the store, 1 to 255 characters, no control characters.
	// Required.
	Name string `json:"name"`
	// Description is shown to the agent, at most 1024 characters.
	Description string `json:"description,omitzero"`
	// Metadata is at most 16 pairs, keys of at most 64 characters, values
	// of at most 512.
	Metadata map[string]string `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break: a name empty, longer
// than 255 characters or holding a control character, a description
// longer than 1024 characters, or bad metadata.
func (p MemoryStoreCreateParams) Validate() error {
	if err := validateMemoryStoreName(p.Name); err != nil {
		return err
	}
	if err := validateLength("description", p.Description, 0, maxMemoryStoreDescriptionLen); err != nil {
		return err
	}
	return validateMetadata("metadata", p.Metadata)
}

// MemoryStoreUpdateParams are the parameters of [MemoryStoresService.Update].
// A zero field keeps the store's value.
//
//mms:json
type MemoryStoreUpdateParams struct {
	// Name sets the name (1 to 255 characters, no control characters).
	// [Clear] sends null, which the schema allows; the spec does not say
	// what it does to a name the record always has (mmstest keeps it).
	Name Update[string] `json:"name,omitzero"`
	// Description sets (at most 1024 characters) or clears (null, the
	// record then shows "") the description.
	Description Update[string] `json:"description,omitzero"`
	// Metadata upserts and deletes keys; others are kept.
	Metadata MetadataPatch `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break: a name set but empty,
// too long or holding a control character, a description set longer than
// 1024 characters, or a bad metadata patch.
func (p MemoryStoreUpdateParams) Validate() error {
	if v, ok := p.Name.Value(); ok {
		if err := validateMemoryStoreName(v); err != nil {
			return err
		}
	}
	if v, ok := p.Description.Value(); ok {
		if err := validateLength("description", v, 0, maxMemoryStoreDescriptionLen); err != nil {
			return err
		}
	}
	return p.Metadata.validate("metadata")
}

// validateMemoryStoreName checks a store name: 1–255 characters, none a
// control character.
func validateMemoryStoreName(name string) error {
	if err := validateLength("name", name, 1, maxMemoryStoreNameLen); err != nil {
		return err
	}
	return noControlChars("name", name)
}

// noControlChars reports the first control character of s by its byte
// offset.
func noControlChars(path, s string) error {
	for i, r := range s {
		if unicode.IsControl(r) {
			return invalid(path, "must not contain control characters, got %U at byte %d", r, i)
		}
	}
	return nil
}

// Create creates a memory store (POST /v1/memory_stores). The params are
// checked first (see [MemoryStoreCreateParams.Validate]); a
// *ValidationError means nothing was sent.
func (s *MemoryStoresService) Create(ctx context.Context, p MemoryStoreCreateParams, opts ...option.RequestOption) (*MemoryStore, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a memory store (GET /v1/memory_stores/{memory_store_id}).
func (s *MemoryStoresService) Get(ctx context.Context, storeID string, opts ...option.RequestOption) (*MemoryStore, error) {
	return s.at(storeID).get(ctx, opts)
}

// Update changes a store's name, description or metadata (POST
// /v1/memory_stores/{memory_store_id}).
func (s *MemoryStoresService) Update(ctx context.Context, storeID string, p MemoryStoreUpdateParams, opts ...option.RequestOption) (*MemoryStore, error) {
	return s.at(storeID).update(ctx, p, opts)
}

// Archive archives a store (POST /v1/memory_stores/{memory_store_id}/archive):
// the record is kept with ArchivedAt set; new sessions naming it fail.
func (s *MemoryStoresService) Archive(ctx context.Context, storeID string, opts ...option.RequestOption) (*MemoryStore, error) {
	return s.at(storeID).action(ctx, "/archive", nil, opts)
}

// Delete deletes a store and its memories for good (DELETE
// /v1/memory_stores/{memory_store_id}).
func (s *MemoryStoresService) Delete(ctx context.Context, storeID string, opts ...option.RequestOption) (*MemoryStoreDeleted, error) {
	return as[MemoryStoreDeleted](s.at(storeID)).delete(ctx, opts)
}

// MemoryStoreListParams are the parameters of [MemoryStoresService.List]
// and [MemoryStoresService.ListPage].
type MemoryStoreListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived stores too.
	IncludeArchived bool
	// CreatedAfter and CreatedBefore, when not zero, keep stores created
	// at or after, and at or before, these times (created_at[gte] and
	// created_at[lte]).
	CreatedAfter, CreatedBefore time.Time
}

// Validate reports the first rule the params break: CreatedAfter later
// than CreatedBefore, or Limit outside 1–100 when set.
func (p MemoryStoreListParams) Validate() error {
	if err := validateCreatedRange(p.CreatedAfter, p.CreatedBefore); err != nil {
		return err
	}
	return validateLimit(p.Limit, 100)
}

func (p MemoryStoreListParams) listArgs() listArgs {
	a := archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
	setCreatedRange(a.query, p.CreatedAfter, p.CreatedBefore)
	return a
}

// List iterates over the memory stores, newest first, fetching pages as it
// goes (GET /v1/memory_stores, cursor scheme). Nothing is sent before the
// loop starts; ranging again lists again from p.Page; an error is yielded
// once, last.
func (s *MemoryStoresService) List(ctx context.Context, p MemoryStoreListParams, opts ...option.RequestOption) iter.Seq2[MemoryStore, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of memory stores (GET /v1/memory_stores).
// Continue with Page set to the page's *NextPage while it is not nil.
func (s *MemoryStoresService) ListPage(ctx context.Context, p MemoryStoreListParams, opts ...option.RequestOption) (*Page[MemoryStore], error) {
	return s.all().listPage(ctx, p, opts)
}

// all is the memory stores' endpoint (/v1/memory_stores).
func (s *MemoryStoresService) all() endpoint[MemoryStore] {
	return memoryEndpoint[MemoryStore](s.client, "/v1/memory_stores", nil)
}

// at is one memory store's endpoint (/v1/memory_stores/{memory_store_id}).
func (s *MemoryStoresService) at(storeID string) endpoint[MemoryStore] {
	return memoryStoreAt[MemoryStore](s.client, storeID)
}

// memoryStoreAt is one memory store's endpoint
// (/v1/memory_stores/{memory_store_id}) answering a T, the base of its
// memories' and versions' paths.
func memoryStoreAt[T any](c *Client, storeID string) endpoint[T] {
	return memoryEndpoint[T](c, "/v1/memory_stores", nil).id("memory_store_id", storeID)
}
