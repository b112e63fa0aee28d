package mms

import (
	"context"
	"encoding/json"
	"iter"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// SessionResourcesService adds, retrieves, updates, lists and deletes the
// resources of a session (/v1/sessions/{session_id}/resources). Reach it
// as client.Sessions.Resources.
type SessionResourcesService struct {
	client *Client
}

// A SessionResourceParams is a resource given at session creation:
// [GitHubRepositoryResourceParams], [FileResourceParams] or
// [MemoryStoreResourceParams]; a kind this SDK version cannot name decodes
// to [UnknownSessionResourceParams].
type SessionResourceParams interface {
	json.Marshaler
	isSessionResourceParams()
	validate(path string) error
}

var sessionResourceParamsUnion = codec.NewUnion[SessionResourceParams]("SessionResourceParams", UnknownSessionResourceParams{}).
	Add("github_repository", GitHubRepositoryResourceParams{}).
	Add("file", FileResourceParams{}).
	Add("memory_store", MemoryStoreResourceParams{})

// GitHubRepositoryResourceParams clones a GitHub repository into the
// session (the wire type "github_repository").
type GitHubRepositoryResourceParams struct {
	// URL is the repository's URL, at most 2,048 characters. Required.
	URL string `json:"url"`
	// AuthorizationToken grants access to the repository, at most 4,096
	// characters. Required by sessions; a deployment needs it for a
	// private repository only, and a zero token is not sent. It is sent
	// but never printed, and the service never returns it.
	AuthorizationToken Secret `json:"authorization_token,omitzero"`
	// MountPath is where the repository goes; "" means
	// /workspace/<repo>.
	MountPath string `json:"mount_path,omitzero"`
	// Checkout picks a branch ([BranchCheckout]) or a commit
	// ([CommitCheckout]); nil means the default branch.
	Checkout RepositoryCheckout `json:"checkout,omitzero"`
}

// FileResourceParams mounts an uploaded file in the session (the wire
// type "file"). It is also what [SessionResourcesService.Add] takes.
type FileResourceParams struct {
	// FileID names the file, at most 128 characters. Required.
	FileID string `json:"file_id"`
	// MountPath is where the file goes; "" means
	// /mnt/session/uploads/<file_id>.
	MountPath string `json:"mount_path,omitzero"`
}

// MemoryStoreAccess is what a session may do with a memory store.
type MemoryStoreAccess string

// The memory store access modes.
const (
	MemoryStoreAccessReadWrite MemoryStoreAccess = "read_write"
	MemoryStoreAccessReadOnly  MemoryStoreAccess = "read_only"
)

// MemoryStoreResourceParams gives the session a memory store (the wire
// type "memory_store").
type MemoryStoreResourceParams struct {
	// MemoryStoreID names the store ("memstore_…"). Required.
	MemoryStoreID string `json:"memory_store_id"`
	// Access is read_write or read_only; "" leaves the default.
	Access MemoryStoreAccess `json:"access,omitzero"`
	// Instructions tell the agent how to use the store; at most 4,096
	// characters.
	Instructions string `json:"instructions,omitzero"`
}

// UnknownSessionResourceParams keeps a resource kind this SDK version
// cannot name.
type UnknownSessionResourceParams struct {
	Type string
	Raw  json.RawMessage
}

func (r GitHubRepositoryResourceParams) validate(path string) error {
	if err := requiredID(path+".url", r.URL); err != nil {
		return err
	}
	if err := validateLength(path+".url", r.URL, 1, wire.MaxRepositoryURLLen); err != nil {
		return err
	}
	if err := validateAuthorizationToken(path+".authorization_token", r.AuthorizationToken); err != nil {
		return err
	}
	switch c := r.Checkout.(type) {
	case BranchCheckout:
		if err := requiredID(path+".checkout.name", c.Name); err != nil {
			return err
		}
		return validateLength(path+".checkout.name", c.Name, 1, wire.MaxCheckoutBranchLen)
	case CommitCheckout:
		if err := requiredID(path+".checkout.sha", c.SHA); err != nil {
			return err
		}
		if n := utf8.RuneCountInString(c.SHA); n < wire.MinCheckoutSHALen {
			return invalid(path+".checkout.sha", "must be at least %d characters, got %d", wire.MinCheckoutSHALen, n)
		}
	}
	return nil
}

// validateAuthorizationToken reports a repository token that is empty or
// over 4,096 characters; the error names the length only.
func validateAuthorizationToken(path string, token Secret) error {
	if err := requiredID(path, token.Reveal()); err != nil {
		return err
	}
	return validateLength(path, token.Reveal(), 1, wire.MaxAuthorizationTokenLen)
}

func (r FileResourceParams) validate(path string) error {
	if err := requiredID(path+".file_id", r.FileID); err != nil {
		return err
	}
	return validateLength(path+".file_id", r.FileID, 1, wire.MaxResourceFileIDLen)
}

func (r MemoryStoreResourceParams) validate(path string) error {
	if err := requiredID(path+".memory_store_id", r.MemoryStoreID); err != nil {
		return err
	}
	switch r.Access {
	case "", MemoryStoreAccessReadWrite, MemoryStoreAccessReadOnly:
	default:
		return invalid(path+".access", "must be %q or %q, got %q", MemoryStoreAccessReadWrite, MemoryStoreAccessReadOnly, r.Access)
	}
	return validateLength(path+".instructions", r.Instructions, 0, maxResourceInstruction)
}

// A RepositoryCheckout picks what a repository resource checks out:
// [BranchCheckout], [CommitCheckout] or [UnknownRepositoryCheckout].
type RepositoryCheckout interface {
	json.Marshaler
	isRepositoryCheckout()
}

var repositoryCheckoutUnion = codec.NewUnion[RepositoryCheckout]("RepositoryCheckout", UnknownRepositoryCheckout{}).
	Add("branch", BranchCheckout{}).
	Add("commit", CommitCheckout{})

// BranchCheckout checks out a branch (the wire type "branch").
type BranchCheckout struct {
	// Name is the branch, 1 to 255 characters. Required.
	Name string `json:"name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CommitCheckout checks out a commit (the wire type "commit").
type CommitCheckout struct {
	// SHA is the commit, at least 7 characters. Required.
	SHA string `json:"sha"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownRepositoryCheckout keeps a checkout kind this SDK version cannot
// name.
type UnknownRepositoryCheckout struct {
	Type string
	Raw  json.RawMessage
}

// A SessionResource is a resource of a session's record:
// [GitHubRepositoryResource], [FileResource], [MemoryStoreResource] or
// [UnknownSessionResource].
type SessionResource interface {
	json.Marshaler
	isSessionResource()
}

var sessionResourceUnion = codec.NewUnion[SessionResource]("SessionResource", UnknownSessionResource{}).
	Add("github_repository", GitHubRepositoryResource{}).
	Add("file", FileResource{}).
	Add("memory_store", MemoryStoreResource{})

// GitHubRepositoryResource is a repository cloned into the session (the
// wire type "github_repository"). Its token is never returned.
type GitHubRepositoryResource struct {
	// ID identifies the resource within the session.
	ID string `json:"id"`
	// URL is the repository's URL.
	URL string `json:"url"`
	// MountPath is where the repository is.
	MountPath string `json:"mount_path"`
	// Checkout is the branch or commit; nil when null.
	Checkout RepositoryCheckout `json:"checkout"`
	// CreatedAt and UpdatedAt are RFC 3339 strings.
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FileResource is an uploaded file mounted in the session (the wire type
// "file").
type FileResource struct {
	// ID identifies the resource within the session.
	ID string `json:"id"`
	// FileID names the file.
	FileID string `json:"file_id"`
	// MountPath is where the file is.
	MountPath string `json:"mount_path"`
	// CreatedAt and UpdatedAt are RFC 3339 strings.
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MemoryStoreResource is a memory store the session uses (the wire type
// "memory_store"). The reference gives it no id or timestamps; the
// service's are kept in Extra.
type MemoryStoreResource struct {
	// MemoryStoreID names the store.
	MemoryStoreID string `json:"memory_store_id"`
	// Access is read_write or read_only; "" when absent.
	Access MemoryStoreAccess `json:"access,omitzero"`
	// Instructions, Description, MountPath and Name are "" when absent.
	Instructions string `json:"instructions,omitzero"`
	Description  string `json:"description,omitzero"`
	MountPath    string `json:"mount_path,omitzero"`
	Name         string `json:"name,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSessionResource keeps a resource kind this SDK version cannot
// name.
type UnknownSessionResource struct {
	Type string
	Raw  json.RawMessage
}

// sessionResourceValue lets a single resource be decoded where the
// union is the whole body.
type sessionResourceValue struct{ v SessionResource }

func (r *sessionResourceValue) UnmarshalJSON(data []byte) error {
	v, err := sessionResourceUnion.Decode(data)
	r.v = v
	return err
}

// SessionResourceDeleted is the answer of [SessionResourcesService.Delete]
// (the wire type "session_resource_deleted").
//
//mms:json type=session_resource_deleted
type SessionResourceDeleted struct {
	// ID is the deleted resource's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionResourceUpdateParams are the parameters of
// [SessionResourcesService.Update]: a new token for a GitHub repository
// resource (the only kind that rotates).
//
//mms:json
type SessionResourceUpdateParams struct {
	// AuthorizationToken replaces the repository's token, at most 4,096
	// characters. Required.
	AuthorizationToken Secret `json:"authorization_token"`
}

// Validate reports a missing token or one over 4,096 characters.
func (p SessionResourceUpdateParams) Validate() error {
	return validateAuthorizationToken("authorization_token", p.AuthorizationToken)
}

// Add mounts an uploaded file in a running session (POST
// /v1/sessions/{session_id}/resources); only files can be added after
// creation.
func (s *SessionResourcesService) Add(ctx context.Context, sessionID string, p FileResourceParams, opts ...option.RequestOption) (*FileResource, error) {
	return as[FileResource](s.all(sessionID)).post(ctx, p, opts)
}

// Get retrieves one resource of a session (GET
// /v1/sessions/{session_id}/resources/{resource_id}).
func (s *SessionResourcesService) Get(ctx context.Context, sessionID, resourceID string, opts ...option.RequestOption) (SessionResource, error) {
	return resourceOf(s.at(sessionID, resourceID).get(ctx, opts))
}

// Update rotates a GitHub repository resource's token (POST
// /v1/sessions/{session_id}/resources/{resource_id}).
func (s *SessionResourcesService) Update(ctx context.Context, sessionID, resourceID string, p SessionResourceUpdateParams, opts ...option.RequestOption) (SessionResource, error) {
	if err := p.Validate(); err != nil {
		return nil, err // before the ids, unlike the other methods
	}
	return resourceOf(s.at(sessionID, resourceID).update(ctx, p, opts))
}

// Delete removes a resource from a session (DELETE
// /v1/sessions/{session_id}/resources/{resource_id}).
func (s *SessionResourcesService) Delete(ctx context.Context, sessionID, resourceID string, opts ...option.RequestOption) (*SessionResourceDeleted, error) {
	return as[SessionResourceDeleted](s.at(sessionID, resourceID)).delete(ctx, opts)
}

// resourceOf unwraps the union a resource call answered.
func resourceOf(v *sessionResourceValue, err error) (SessionResource, error) {
	if err != nil {
		return nil, err
	}
	return v.v, nil
}

// SessionResourceListParams are the parameters of
// [SessionResourcesService.List] and [SessionResourcesService.ListPage].
type SessionResourceListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
}

// Validate reports Limit outside 1–100 when set.
func (p SessionResourceListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p SessionResourceListParams) listArgs() listArgs {
	return listArgs{query: limitQuery(p.Limit), start: listPos{page: p.Page}}
}

// List iterates over a session's resources, fetching pages as it goes
// (GET /v1/sessions/{session_id}/resources, cursor scheme).
func (s *SessionResourcesService) List(ctx context.Context, sessionID string, p SessionResourceListParams, opts ...option.RequestOption) iter.Seq2[SessionResource, error] {
	return s.all(sessionID).list(ctx, p, opts)
}

// ListPage fetches one page of a session's resources.
func (s *SessionResourcesService) ListPage(ctx context.Context, sessionID string, p SessionResourceListParams, opts ...option.RequestOption) (*Page[SessionResource], error) {
	return s.all(sessionID).listPage(ctx, p, opts)
}

// Exported checks of the resource variants, their fields named under
// "resource" as [SessionResourcesService.Add] names them.

// Validate reports the first rule the resource breaks.
func (r GitHubRepositoryResourceParams) Validate() error { return r.validate("resource") }

// Validate reports a file id that is missing or over 128 characters.
func (r FileResourceParams) Validate() error { return r.validate("resource") }

// Validate reports the first rule the resource breaks.
func (r MemoryStoreResourceParams) Validate() error { return r.validate("resource") }

// Validate returns nil: a resource this SDK version does not model has
// nothing to check client-side.
func (UnknownSessionResourceParams) Validate() error { return nil }

// all is a session's resources' endpoint
// (/v1/sessions/{session_id}/resources).
func (s *SessionResourcesService) all(sessionID string) endpoint[SessionResource] {
	return sessionAt[SessionResource](s.client, sessionID).sub("/resources")
}

// at is one resource's endpoint
// (/v1/sessions/{session_id}/resources/{resource_id}), answering the
// resource's wire form.
func (s *SessionResourcesService) at(sessionID, resourceID string) endpoint[sessionResourceValue] {
	return as[sessionResourceValue](s.all(sessionID)).id("resource_id", resourceID)
}
