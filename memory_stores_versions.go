package mms

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// MemoryVersionsService retrieves, lists and redacts the versions of a
// store's memories (/v1/memory_stores/{memory_store_id}/memory_versions):
// one per create, modify and delete. Reach it as
// client.MemoryStores.Versions. Every call sends the agent-memory beta,
// merged with the caller's.
type MemoryVersionsService struct {
	client *Client
}

// MemoryVersionOperation is what a version recorded. Unknown values pass
// through.
type MemoryVersionOperation string

// The operations.
const (
	MemoryVersionCreated  MemoryVersionOperation = "created"
	MemoryVersionModified MemoryVersionOperation = "modified"
	MemoryVersionDeleted  MemoryVersionOperation = "deleted"
)

// MemoryVersionRecord is a memory version's record (the wire type
// "memory_version"), the item of [MemoryVersionsService]. (The memory
// tool's version, a Messages tool setting, is [MemoryToolVersion].)
// Members this SDK version does not model are kept in Extra.
//
//mms:json type=memory_version
type MemoryVersionRecord struct {
	// ID identifies the version ("memver_…").
	ID string `json:"id"`
	// MemoryID and MemoryStoreID name the memory and its store; they stay
	// valid after the memory is deleted.
	MemoryID      string `json:"memory_id"`
	MemoryStoreID string `json:"memory_store_id"`
	// Operation is what the version recorded.
	Operation MemoryVersionOperation `json:"operation"`
	// CreatedAt is an RFC 3339 string as the service sent it.
	CreatedAt string `json:"created_at"`
	// Content is the text; nil with the basic view, for a deletion and
	// once redacted.
	Content *string `json:"content,omitzero"`
	// ContentSHA256 and ContentSizeBytes describe the content; nil for a
	// deletion and once redacted.
	ContentSHA256    *string `json:"content_sha256,omitzero"`
	ContentSizeBytes *int64  `json:"content_size_bytes,omitzero"`
	// Path is the memory's path at this version; nil exactly when
	// redacted.
	Path *string `json:"path,omitzero"`
	// CreatedBy is who made the change; nil when absent.
	CreatedBy MemoryVersionActor `json:"created_by,omitzero"`
	// RedactedAt and RedactedBy say when and by whom the version was
	// redacted; nil while it is not.
	RedactedAt *string            `json:"redacted_at,omitzero"`
	RedactedBy MemoryVersionActor `json:"redacted_by,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A MemoryVersionActor is who made or redacted a memory version
// ([MemoryVersionRecord.CreatedBy], [MemoryVersionRecord.RedactedBy]).
// Variants: [MemoryVersionSessionActor], [APIActor], [UserActor],
// [ServiceAccountActor] and [UnknownMemoryVersionActor].
type MemoryVersionActor interface {
	json.Marshaler
	isActor()
}

var actorUnion = codec.NewUnion[MemoryVersionActor]("MemoryVersionActor", UnknownMemoryVersionActor{}).
	Add("session_actor", MemoryVersionSessionActor{}).
	Add("api_actor", APIActor{}).
	Add("user_actor", UserActor{}).
	Add("service_account_actor", ServiceAccountActor{})

// Deprecated: use MemoryVersionActor; other APIs have actor unions of
// their own.
type Actor = MemoryVersionActor

// MemoryVersionSessionActor is a [MemoryVersionActor]: an agent's session
// made the change (the wire type "session_actor").
type MemoryVersionSessionActor struct {
	SessionID string `json:"session_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Deprecated: use MemoryVersionSessionActor; this is a memory-version
// actor, not a part of sessions.
type SessionActor = MemoryVersionSessionActor

// APIActor is a request made with an API key (the wire type "api_actor").
type APIActor struct {
	APIKeyID string `json:"api_key_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserActor is a user (the wire type "user_actor").
type UserActor struct {
	UserID string `json:"user_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServiceAccountActor is a service account (the wire type
// "service_account_actor").
type ServiceAccountActor struct {
	ServiceAccountID string `json:"service_account_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownMemoryVersionActor keeps an actor kind this SDK version cannot name; it is
// sent back as it came.
type UnknownMemoryVersionActor struct {
	Type string
	Raw  json.RawMessage
}

// Deprecated: use UnknownMemoryVersionActor.
type UnknownActor = UnknownMemoryVersionActor

// MemoryVersionListParams are the parameters of
// [MemoryVersionsService.List] and [MemoryVersionsService.ListPage]. Each
// filter left zero is not sent.
type MemoryVersionListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// MemoryID keeps the versions of one memory.
	MemoryID string
	// Operation keeps the versions of one operation.
	Operation MemoryVersionOperation
	// SessionID, APIKeyID and ServiceAccountID keep the versions made by
	// that actor.
	SessionID, APIKeyID, ServiceAccountID string
	// CreatedAfter and CreatedBefore keep versions created at or after,
	// and at or before, these times (created_at[gte] and created_at[lte]).
	CreatedAfter, CreatedBefore time.Time
	// View is sent as the view query parameter.
	View MemoryView
}

// Validate reports the first rule the params break: CreatedAfter later
// than CreatedBefore, Limit outside 1–100 when set, or a bad view.
func (p MemoryVersionListParams) Validate() error {
	if err := validateCreatedRange(p.CreatedAfter, p.CreatedBefore); err != nil {
		return err
	}
	if err := validateLimit(p.Limit, 100); err != nil {
		return err
	}
	return p.View.validate()
}

func (p MemoryVersionListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	setStrings(q, map[string]string{
		"memory_id": p.MemoryID, "operation": string(p.Operation), "session_id": p.SessionID,
		"api_key_id": p.APIKeyID, "service_account_id": p.ServiceAccountID, "view": string(p.View),
	})
	setCreatedRange(q, p.CreatedAfter, p.CreatedBefore)
	return listArgs{query: q, start: listPos{page: p.Page}}
}

// MemoryVersionGetParams are the parameters of [MemoryVersionsService.Get].
type MemoryVersionGetParams struct {
	// View is sent as the view query parameter.
	View MemoryView
}

// Validate reports a bad view.
func (p MemoryVersionGetParams) Validate() error { return p.View.validate() }

// Get retrieves a version (GET …/memory_versions/{memory_version_id}); its
// Content is set only with p.View [MemoryViewFull] and while the version
// has content.
func (s *MemoryVersionsService) Get(ctx context.Context, storeID, versionID string, p MemoryVersionGetParams, opts ...option.RequestOption) (*MemoryVersionRecord, error) {
	return s.at(storeID, versionID).checked(p).withQuery(p.View.query()).get(ctx, opts)
}

// Redact erases a version's content, hash, size and path for good (POST
// …/memory_versions/{memory_version_id}/redact); the record stays, with
// RedactedAt and RedactedBy set.
func (s *MemoryVersionsService) Redact(ctx context.Context, storeID, versionID string, opts ...option.RequestOption) (*MemoryVersionRecord, error) {
	return s.at(storeID, versionID).action(ctx, "/redact", nil, opts)
}

// List iterates over a store's versions, newest first, fetching pages as
// it goes (GET …/memory_versions, cursor scheme). Nothing is sent before
// the loop starts; an error is yielded once, last.
func (s *MemoryVersionsService) List(ctx context.Context, storeID string, p MemoryVersionListParams, opts ...option.RequestOption) iter.Seq2[MemoryVersionRecord, error] {
	return s.all(storeID).list(ctx, p, opts)
}

// ListPage fetches one page of a store's versions (GET …/memory_versions).
func (s *MemoryVersionsService) ListPage(ctx context.Context, storeID string, p MemoryVersionListParams, opts ...option.RequestOption) (*Page[MemoryVersionRecord], error) {
	return s.all(storeID).listPage(ctx, p, opts)
}

// all is a store's versions' endpoint
// (/v1/memory_stores/{memory_store_id}/memory_versions).
func (s *MemoryVersionsService) all(storeID string) endpoint[MemoryVersionRecord] {
	return memoryStoreAt[MemoryVersionRecord](s.client, storeID).sub("/memory_versions")
}

// at is one version's endpoint
// (/v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}).
func (s *MemoryVersionsService) at(storeID, versionID string) endpoint[MemoryVersionRecord] {
	return s.all(storeID).id("memory_version_id", versionID)
}
