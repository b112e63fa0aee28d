package admin

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/url"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// PluginMarketplacesService reads and configures plugin marketplaces and
// validates marketplace sources before they are added
// (/v1/organizations/plugin_marketplaces, beta ce-plugins-2026-09-01).
type PluginMarketplacesService struct{ c *Client }

// PluginMarketplace is a marketplace's record (the wire type
// "plugin_marketplace").
//
//mms:json type=plugin_marketplace
type PluginMarketplace struct {
	// ID identifies the marketplace; Name names it.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Owner is the organization or member owning it.
	Owner PluginOwner `json:"owner"`
	// Source is where its plugins come from (manual uploads, a
	// repository, …), as the service describes it.
	Source json.RawMessage `json:"source"`
	// SyncStatus is the state of its last sync, as the service describes it.
	SyncStatus json.RawMessage `json:"sync_status"`
	// DefaultInstallationPreference applies to its plugins unless a
	// plugin sets its own.
	DefaultInstallationPreference string `json:"default_installation_preference"`
	// LastSyncEndedAt and LastSyncReadSHA describe the last sync; nil
	// when none.
	LastSyncEndedAt *time.Time `json:"last_sync_ended_at"`
	LastSyncReadSHA *string    `json:"last_sync_read_sha"`
	// CreatedAt is when it was added.
	CreatedAt time.Time `json:"created_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// PluginMarketplaceUpdateParams are the parameters of
// [PluginMarketplacesService.Update].
//
//mms:json
type PluginMarketplaceUpdateParams struct {
	// DefaultInstallationPreference is the new default. Required.
	DefaultInstallationPreference string `json:"default_installation_preference"`
}

// Validate reports a missing preference.
func (p PluginMarketplaceUpdateParams) Validate() error {
	return required("default_installation_preference", p.DefaultInstallationPreference)
}

// PluginMarketplaceListParams are the parameters of
// [PluginMarketplacesService.List] (cursor scheme).
type PluginMarketplaceListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// OwnerType and Source filter the list.
	OwnerType, Source string
}

// Validate reports Limit outside 1–1000.
func (p PluginMarketplaceListParams) Validate() error { return validateLimit(p.Limit, 1000) }

func (p PluginMarketplaceListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "owner_type", p.OwnerType)
	setString(a.query, "source", p.Source)
	return a
}

// MarketplaceValidationReport is what validating a marketplace source
// found (the wire type "plugin_marketplace_validation_report"): problems
// are reported here, not refused.
//
//mms:json type=plugin_marketplace_validation_report
type MarketplaceValidationReport struct {
	// Valid reports a source that can be added as it is.
	Valid bool `json:"valid"`
	// Ref and CommitSHA name what was read (repositories).
	Ref       *string `json:"ref"`
	CommitSHA *string `json:"commit_sha"`
	// TotalPluginCount is how many plugins the source holds.
	TotalPluginCount int `json:"total_plugin_count"`
	// ManifestError and ManifestErrorCode describe a bad marketplace
	// manifest; nil when it is fine.
	ManifestError     *string `json:"manifest_error"`
	ManifestErrorCode *string `json:"manifest_error_code"`
	// PluginErrors and PluginWarnings are per-plugin findings, as the
	// service describes them.
	PluginErrors   []json.RawMessage `json:"plugin_errors"`
	PluginWarnings []json.RawMessage `json:"plugin_warnings"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MarketplaceArchive is a marketplace packed as an archive.
type MarketplaceArchive struct {
	// Filename names the archive ("marketplace.zip"). Required.
	Filename string
	// Reader supplies it; resent after a failure only when it is an
	// io.ReadSeeker. Required.
	Reader io.Reader
	// ContentType defaults to application/zip.
	ContentType string
	// Size is the length for readers that cannot tell it; 0 or -1 for
	// unknown.
	Size int64
}

// Validate reports a missing reader or filename, a filename with a line
// break, NUL or slash, or a bad content type or size.
func (a MarketplaceArchive) Validate() error {
	switch {
	case a.Reader == nil:
		return invalid("archive.reader", "is required")
	case a.Filename == "":
		return invalid("archive.filename", "is required")
	case strings.ContainsAny(a.Filename, "\r\n\x00/\\"):
		return invalid("archive.filename", "must be a base name without line breaks, NUL or slashes, got %q", a.Filename)
	case strings.ContainsAny(a.ContentType, "\r\n\x00"):
		return invalid("archive.content_type", "must not contain line breaks or NUL")
	case a.Size < -1:
		return invalid("archive.size", "must be the archive's length, or 0 or -1 for unknown, got %d", a.Size)
	}
	return nil
}

// ValidateRepositoryParams are the parameters of
// [PluginMarketplacesService.ValidateRepository].
//
//mms:json
type ValidateRepositoryParams struct {
	// RepositoryURL is the repository (an https URL). Required.
	RepositoryURL string `json:"repository_url"`
	// Ref is the branch, tag or commit; the default branch when "".
	Ref string `json:"ref,omitzero"`
}

// Validate reports a missing repository URL or one that is not https.
func (p ValidateRepositoryParams) Validate() error {
	if err := required("repository_url", p.RepositoryURL); err != nil {
		return err
	}
	if u, err := url.Parse(p.RepositoryURL); err != nil || u.Scheme != "https" || u.Host == "" {
		return invalid("repository_url", "must be an absolute https URL")
	}
	return nil
}

func (s *PluginMarketplacesService) all() endpoint[PluginMarketplace] {
	return ep[PluginMarketplace](s.c, adminbridge.AdminKey, "/plugin_marketplaces").beta(wire.BetaPlugins)
}

// Get retrieves a marketplace.
func (s *PluginMarketplacesService) Get(ctx context.Context, marketplaceID string, opts ...option.RequestOption) (*PluginMarketplace, error) {
	return s.all().id("marketplace_id", marketplaceID).get(ctx, opts)
}

// Update sets a marketplace's default installation preference.
func (s *PluginMarketplacesService) Update(ctx context.Context, marketplaceID string, p PluginMarketplaceUpdateParams, opts ...option.RequestOption) (*PluginMarketplace, error) {
	return s.all().id("marketplace_id", marketplaceID).update(ctx, p, opts)
}

// List iterates over the marketplaces (cursor scheme).
func (s *PluginMarketplacesService) List(ctx context.Context, p PluginMarketplaceListParams, opts ...option.RequestOption) iter.Seq2[PluginMarketplace, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// ValidateArchive checks a marketplace archive (multipart/form-data, one
// archive part) and reports what it found; nothing is stored, so it is
// resent like a read when the reader can be replayed.
func (s *PluginMarketplacesService) ValidateArchive(ctx context.Context, a MarketplaceArchive, opts ...option.RequestOption) (*MarketplaceValidationReport, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	ct := a.ContentType
	if ct == "" {
		ct = "application/zip"
	}
	form := multipart.New()
	form.AddFile("archive", a.Filename, ct, multipart.NewSource(a.Reader, a.Size))
	return as[MarketplaceValidationReport](s.all().sub("/validate_archive")).upload(ctx, form, transport.Idempotent, opts)
}

// ValidateRepository checks a marketplace repository and reports what it
// found; nothing is stored.
func (s *PluginMarketplacesService) ValidateRepository(ctx context.Context, p ValidateRepositoryParams, opts ...option.RequestOption) (*MarketplaceValidationReport, error) {
	return as[MarketplaceValidationReport](s.all()).action(ctx, "/validate_repository", p, transport.Idempotent, opts)
}
