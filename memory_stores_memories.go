package mms

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"iter"
	"net/url"
	"strconv"
	"strings"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// MemoriesService creates, retrieves, updates, lists and deletes the
// memories of a store (/v1/memory_stores/{memory_store_id}/memories).
// Reach it as client.MemoryStores.Memories. Every call sends the
// agent-memory beta, merged with the caller's.
type MemoriesService struct {
	client *Client
}

// MemoryView says how much of a memory an answer shows: [MemoryViewBasic]
// (the service's default) leaves content null, [MemoryViewFull] includes
// it.
type MemoryView string

// The views.
const (
	MemoryViewBasic MemoryView = "basic"
	MemoryViewFull  MemoryView = "full"
)

// validate reports a view other than basic, full and "" (the default).
func (v MemoryView) validate() error {
	switch v {
	case "", MemoryViewBasic, MemoryViewFull:
		return nil
	}
	return invalid("view", "must be %q or %q, got %q", MemoryViewBasic, MemoryViewFull, v)
}

// query returns the view as the query of a call; nil for the default.
func (v MemoryView) query() url.Values {
	if v == "" {
		return nil
	}
	return url.Values{"view": {string(v)}}
}

// A MemoryListItem is an entry of a memories list: a [Memory], a
// [MemoryPrefix] (a directory rolled up by the list's depth) or an
// [UnknownMemoryListItem].
type MemoryListItem interface {
	json.Marshaler
	isMemoryListItem()
}

var memoryListItemUnion = codec.NewUnion[MemoryListItem]("MemoryListItem", UnknownMemoryListItem{}).
	Add("memory", Memory{}).
	Add("memory_prefix", MemoryPrefix{})

// Memory is a memory's record (the wire type "memory"): one text file of
// a store. Members this SDK version does not model are kept in Extra.
type Memory struct {
	// ID identifies the memory ("mem_…"); it stays the same across
	// renames.
	ID string `json:"id"`
	// MemoryStoreID is the store holding it.
	MemoryStoreID string `json:"memory_store_id"`
	// Path is the memory's path in the store ("/notes/a.md").
	Path string `json:"path"`
	// Content is the text; nil unless the call asked for [MemoryViewFull].
	Content *string `json:"content,omitzero"`
	// ContentSHA256 is the lowercase hex SHA-256 of the content's UTF-8
	// bytes, usable as an update's or a delete's precondition.
	ContentSHA256 string `json:"content_sha256"`
	// ContentSizeBytes is the content's size in bytes.
	ContentSizeBytes int64 `json:"content_size_bytes"`
	// MemoryVersionID is the memory's current version ("memver_…").
	MemoryVersionID string `json:"memory_version_id"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them.
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MemoryPrefix is a directory a memories list rolled up (the wire type
// "memory_prefix"): pass its Path as PathPrefix to list what it holds.
type MemoryPrefix struct {
	// Path is the directory, with a trailing "/".
	Path string `json:"path"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownMemoryListItem keeps a list entry this SDK version cannot name;
// it is sent back as it came.
type UnknownMemoryListItem struct {
	Type string
	Raw  json.RawMessage
}

// MemoryDeleted is the answer to [MemoriesService.Delete] (the wire type
// "memory_deleted").
//
//mms:json type=memory_deleted
type MemoryDeleted struct {
	// ID is the deleted memory's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Limits of a memory.
const (
	maxMemoryPathBytes    = 1024
	maxMemoryContentBytes = 102400
	// maxFullViewLimit is the page size limit of a memories list with
	// view=full.
	maxFullViewLimit = 20
)

// ContentSHA256 returns the lowercase hex SHA-256 of content's bytes: what
// the service records as a memory's content_sha256, and what a
// [MemoryPrecondition] or a delete's ExpectedContentSHA256 compares with.
func ContentSHA256(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:])
}

// validateMemoryPath checks a memory path: it starts with "/", has at least
// one segment, is at most 1,024 bytes, and has no empty, "." or ".."
// segment and no control character. The leading slash is stricter than the
// schema but is the service's rule (tunnels-memory.md §2.1, "Path rules:
// starts with /").
func validateMemoryPath(field, p string) error {
	if len(p) > maxMemoryPathBytes {
		return invalid(field, "must be at most %d bytes, got %d", maxMemoryPathBytes, len(p))
	}
	rest, ok := strings.CutPrefix(p, "/")
	if !ok {
		return invalid(field, "must start with \"/\", got %q", p)
	}
	if err := noControlChars(field, p); err != nil {
		return err
	}
	for seg := range strings.SplitSeq(rest, "/") {
		switch seg {
		case "":
			return invalid(field, "must not have empty segments, got %q", p)
		case ".", "..":
			return invalid(field, "must not have %q segments, got %q", seg, p)
		}
	}
	return nil
}

// validateMemoryContent checks a memory's content: at most 102,400 bytes.
func validateMemoryContent(field, content string) error {
	if len(content) > maxMemoryContentBytes {
		return invalid(field, "must be at most %d bytes, got %d", maxMemoryContentBytes, len(content))
	}
	return nil
}

// validateSHA256 checks a content hash: 64 lowercase hex digits.
func validateSHA256(field, sum string) error {
	ok := len(sum) == 64
	for i := 0; ok && i < len(sum); i++ {
		c := sum[i]
		ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
	}
	if !ok {
		return invalid(field, "must be 64 lowercase hex digits, got %q", sum)
	}
	return nil
}

// MemoryCreateParams are the parameters of [MemoriesService.Create].
//
//mms:json
type MemoryCreateParams struct {
	// Path is where the memory goes: it starts with "/" (the service's
	// rule, stricter than its schema: tunnels-memory.md §2.1, "Path
	// rules"), has at least one segment, none empty, "." or "..", no
	// control character, and is at most 1,024 bytes. Unique per store
	// (case-sensitive). Required.
	Path string `json:"path"`
	// Content is the text, at most 102,400 bytes; "" is a valid, empty
	// memory (always sent).
	Content string `json:"content"`
	// View is sent as the view query parameter: whether the answer
	// includes the content.
	View MemoryView `json:"-"`
}

// Validate reports the first rule the params break: a bad path, content
// over 102,400 bytes, or a view other than basic and full.
func (p MemoryCreateParams) Validate() error {
	if err := validateMemoryPath("path", p.Path); err != nil {
		return err
	}
	if err := validateMemoryContent("content", p.Content); err != nil {
		return err
	}
	return p.View.validate()
}

// MemoryPrecondition makes an update apply only while the memory's
// content still has the hash given (the wire type "content_sha256");
// otherwise the service answers 409 memory_precondition_failed_error
// ([ErrMemoryPreconditionFailed]).
//
//mms:json request type=content_sha256
type MemoryPrecondition struct {
	// ContentSHA256 is the expected hash, 64 lowercase hex digits (see
	// [ContentSHA256] and [Memory.ContentSHA256]).
	ContentSHA256 string `json:"content_sha256"`
}

// MemoryUpdateParams are the parameters of [MemoriesService.Update]. A
// zero field keeps the memory's value.
//
//mms:json
type MemoryUpdateParams struct {
	// Content replaces the text (at most 102,400 bytes; a pointer to ""
	// empties it); nil keeps it.
	Content *string `json:"content,omitzero"`
	// Path moves the memory (rules as on create); "" keeps it.
	Path string `json:"path,omitzero"`
	// Precondition, when set, makes the update conditional on the current
	// content's hash.
	Precondition *MemoryPrecondition `json:"precondition,omitzero"`
	// View is sent as the view query parameter.
	View MemoryView `json:"-"`
}

// Validate reports the first rule the params break: content over 102,400
// bytes, a bad path, a precondition hash that is not 64 lowercase hex
// digits, or a bad view.
func (p MemoryUpdateParams) Validate() error {
	if p.Content != nil {
		if err := validateMemoryContent("content", *p.Content); err != nil {
			return err
		}
	}
	if p.Path != "" {
		if err := validateMemoryPath("path", p.Path); err != nil {
			return err
		}
	}
	if p.Precondition != nil {
		if err := validateSHA256("precondition.content_sha256", p.Precondition.ContentSHA256); err != nil {
			return err
		}
	}
	return p.View.validate()
}

// MemoryGetParams are the parameters of [MemoriesService.Get].
type MemoryGetParams struct {
	// View is sent as the view query parameter.
	View MemoryView
}

// MemoryDeleteParams are the parameters of [MemoriesService.Delete].
type MemoryDeleteParams struct {
	// ExpectedContentSHA256, when set (64 lowercase hex digits), makes the
	// delete conditional on the memory's current content hash.
	ExpectedContentSHA256 string
}

// Validate reports a bad view.
func (p MemoryGetParams) Validate() error { return p.View.validate() }

// Validate reports an ExpectedContentSHA256 that is set but not 64
// lowercase hex digits.
func (p MemoryDeleteParams) Validate() error {
	if p.ExpectedContentSHA256 == "" {
		return nil
	}
	return validateSHA256("expected_content_sha256", p.ExpectedContentSHA256)
}

// MemoryListParams are the parameters of [MemoriesService.List] and
// [MemoriesService.ListPage].
type MemoryListParams struct {
	// Limit is the page size, 1–100 (1–20 with [MemoryViewFull]); 0 leaves
	// it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// PathPrefix, when set, keeps the memories under it; it must end with
	// "/".
	PathPrefix string
	// Depth, when above 0, lists that many levels below PathPrefix and
	// rolls deeper entries up into [MemoryPrefix] items; 0 lists
	// recursively.
	Depth int
	// View is sent as the view query parameter.
	View MemoryView
}

// Validate reports the first rule the params break: Limit outside 1–100
// (1–20 with view full), a path prefix not ending with "/", a negative
// depth, or a bad view.
func (p MemoryListParams) Validate() error {
	if err := p.View.validate(); err != nil {
		return err
	}
	max := 100
	if p.View == MemoryViewFull {
		max = maxFullViewLimit
	}
	if err := validateLimit(p.Limit, max); err != nil {
		return err
	}
	if p.PathPrefix != "" && !strings.HasSuffix(p.PathPrefix, "/") {
		return invalid("path_prefix", "must end with \"/\", got %q", p.PathPrefix)
	}
	if p.Depth < 0 {
		return invalid("depth", "must be at least 0, got %d", p.Depth)
	}
	return nil
}

func (p MemoryListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	setStrings(q, map[string]string{"path_prefix": p.PathPrefix, "view": string(p.View)})
	if p.Depth > 0 {
		q.Set("depth", strconv.Itoa(p.Depth))
	}
	return listArgs{query: q, start: listPos{page: p.Page}}
}

// Create writes a new memory (POST
// /v1/memory_stores/{memory_store_id}/memories). A path already used in
// the store is a 409 [ErrMemoryPathConflict] (see [MemoryPathConflictOf]).
func (s *MemoriesService) Create(ctx context.Context, storeID string, p MemoryCreateParams, opts ...option.RequestOption) (*Memory, error) {
	return s.all(storeID).withQuery(p.View.query()).post(ctx, p, opts)
}

// Get retrieves a memory (GET …/memories/{memory_id}); its Content is set
// only with p.View [MemoryViewFull].
func (s *MemoriesService) Get(ctx context.Context, storeID, memoryID string, p MemoryGetParams, opts ...option.RequestOption) (*Memory, error) {
	return s.at(storeID, memoryID).checked(p).withQuery(p.View.query()).get(ctx, opts)
}

// Update changes a memory's content or path (POST …/memories/{memory_id}).
// With a Precondition whose hash no longer matches, the service answers
// 409 [ErrMemoryPreconditionFailed] and changes nothing.
func (s *MemoriesService) Update(ctx context.Context, storeID, memoryID string, p MemoryUpdateParams, opts ...option.RequestOption) (*Memory, error) {
	return s.at(storeID, memoryID).withQuery(p.View.query()).update(ctx, p, opts)
}

// Delete deletes a memory (DELETE …/memories/{memory_id}); its versions
// remain. With ExpectedContentSHA256 set and no longer matching, the
// service answers 409 [ErrMemoryPreconditionFailed].
func (s *MemoriesService) Delete(ctx context.Context, storeID, memoryID string, p MemoryDeleteParams, opts ...option.RequestOption) (*MemoryDeleted, error) {
	e := as[MemoryDeleted](s.at(storeID, memoryID)).checked(p)
	if p.ExpectedContentSHA256 != "" {
		e.query = url.Values{"expected_content_sha256": {p.ExpectedContentSHA256}}
	}
	return e.delete(ctx, opts)
}

// List iterates over a store's memories and rolled-up prefixes, fetching
// pages as it goes (GET …/memories, cursor scheme). Each item is a
// [Memory], a [MemoryPrefix] or an [UnknownMemoryListItem]. Nothing is
// sent before the loop starts; an error is yielded once, last.
func (s *MemoriesService) List(ctx context.Context, storeID string, p MemoryListParams, opts ...option.RequestOption) iter.Seq2[MemoryListItem, error] {
	return as[MemoryListItem](s.all(storeID)).list(ctx, p, opts)
}

// ListPage fetches one page of a store's memories (GET …/memories).
func (s *MemoriesService) ListPage(ctx context.Context, storeID string, p MemoryListParams, opts ...option.RequestOption) (*Page[MemoryListItem], error) {
	return as[MemoryListItem](s.all(storeID)).listPage(ctx, p, opts)
}

// all is a store's memories' endpoint
// (/v1/memory_stores/{memory_store_id}/memories).
func (s *MemoriesService) all(storeID string) endpoint[Memory] {
	return memoryStoreAt[Memory](s.client, storeID).sub("/memories")
}

// at is one memory's endpoint
// (/v1/memory_stores/{memory_store_id}/memories/{memory_id}).
func (s *MemoriesService) at(storeID, memoryID string) endpoint[Memory] {
	return s.all(storeID).id("memory_id", memoryID)
}
