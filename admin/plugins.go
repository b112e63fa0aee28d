package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// PluginsService manages the organization's plugins
// (/v1/organizations/plugins, beta ce-plugins-2026-09-01; Enterprise,
// not Console or HIPAA-ready organizations). Reads need scope
// read:plugins, read:org_audit or a compliance access key with
// read:compliance_org_data; writes write:plugins.
type PluginsService struct {
	c *Client
	// Versions uploads, reads and downloads a plugin's versions.
	Versions *PluginVersionsService
	// InstallationSettings sets where an organization-owned plugin is
	// installed.
	InstallationSettings *PluginInstallationSettingsService
	// Shares lists whom a member-owned plugin is shared with.
	Shares *PluginSharesService
}

// PluginOwner is who owns a plugin or marketplace: {type: "organization"}
// or {type: "user", user_id}.
//
//mms:json
type PluginOwner struct {
	// Type is "organization" or "user".
	Type string `json:"type"`
	// UserID is the owning member, for type "user".
	UserID string `json:"user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Plugin is a plugin's record (the wire type "plugin"). Its name, display
// name, description and manifest version come from its manifest.
//
//mms:json type=plugin
type Plugin struct {
	// ID identifies the plugin.
	ID string `json:"id"`
	// Name is the manifest's name (at most 64 lowercase letters, digits
	// and hyphens).
	Name string `json:"name"`
	// DisplayName and Description are the manifest's.
	DisplayName string  `json:"display_name"`
	Description *string `json:"description"`
	// ManifestVersion is the manifest's version.
	ManifestVersion *string `json:"manifest_version"`
	// MarketplaceID is the marketplace the plugin is in.
	MarketplaceID *string `json:"marketplace_id"`
	// Owner is the organization or the member owning it.
	Owner PluginOwner `json:"owner"`
	// CreatedBy is who uploaded it, as the service describes them.
	CreatedBy json.RawMessage `json:"created_by"`
	// Components are the plugin's parts (skills, commands, …), as the
	// service describes them.
	Components []json.RawMessage `json:"components"`
	// ContentScan is the state of the content scan; Reach who can use
	// the plugin; both as the service describes them.
	ContentScan json.RawMessage `json:"content_scan"`
	Reach       json.RawMessage `json:"reach"`
	// LatestVersionID is the newest version; ServedVersionID the one
	// members get, pinned when ServedVersionPinned.
	LatestVersionID     *string `json:"latest_version_id"`
	ServedVersionID     *string `json:"served_version_id"`
	ServedVersionPinned bool    `json:"served_version_pinned"`
	// OrganizationInstallationPreference is the organization-wide
	// preference, inherited from the marketplace when
	// OrganizationInstallationPreferenceInherited.
	OrganizationInstallationPreference          *string `json:"organization_installation_preference"`
	OrganizationInstallationPreferenceInherited bool    `json:"organization_installation_preference_inherited"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// PluginDeleted is the answer to [PluginsService.Delete].
//
//mms:json type=plugin_deleted
type PluginDeleted struct {
	// ID is the deleted plugin's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// PluginFile is one file of a plugin version upload.
type PluginFile struct {
	// Path is the file's path in the plugin, relative, with forward
	// slashes (".claude-plugin/plugin.json", "skills/x/SKILL.md").
	Path string
	// Reader supplies the content, streamed as the request is sent. The
	// upload is resent after a failure only when every Reader is an
	// io.ReadSeeker.
	Reader io.Reader
	// ContentType is the file's media type; application/octet-stream
	// when empty.
	ContentType string
	// Size is the content's length for readers that cannot tell it; 0 or
	// -1 mean unknown.
	Size int64
}

// validatePluginFiles checks an upload's files: at least one, each with a
// reader and a clean relative path, no path twice.
func validatePluginFiles(files []PluginFile) error {
	if len(files) == 0 {
		return invalid("files", "must hold at least one file: the plugin's manifest and its parts")
	}
	seen := make(map[string]bool, len(files))
	for i, f := range files {
		field := fmt.Sprintf("files[%d].path", i)
		p := filepath.ToSlash(f.Path)
		switch {
		case f.Reader == nil:
			return invalid(fmt.Sprintf("files[%d].reader", i), "is required")
		case p == "":
			return invalid(field, "must not be empty")
		case strings.ContainsAny(p, "\r\n\x00\\"):
			return invalid(field, "must not contain line breaks, NUL or backslashes (use forward slashes), got %q", f.Path)
		case strings.HasPrefix(p, "/"):
			return invalid(field, "must be relative, got %q", f.Path)
		case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
			return invalid(field, "must be a clean relative path without '.', '..' or empty segments, got %q", f.Path)
		case strings.ContainsAny(f.ContentType, "\r\n\x00"):
			return invalid(fmt.Sprintf("files[%d].content_type", i), "must not contain line breaks or NUL")
		case f.Size < -1:
			return invalid(fmt.Sprintf("files[%d].size", i), "must be the content's length, or 0 or -1 for unknown, got %d", f.Size)
		case seen[p]:
			return invalid(field, "duplicate path %q", f.Path)
		}
		seen[p] = true
	}
	return nil
}

// pluginForm is the multipart body of a version upload.
func pluginForm(files []PluginFile, fields ...string) *multipart.Form {
	form := multipart.New()
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i+1] != "" {
			form.AddField(fields[i], fields[i+1])
		}
	}
	for _, f := range files {
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		form.AddFile("files[]", filepath.ToSlash(f.Path), ct, multipart.NewSource(f.Reader, f.Size))
	}
	return form
}

// upload posts form to e's path with the retry class given.
func (e endpoint[T]) upload(ctx context.Context, form *multipart.Form, retry transport.Retry, opts []option.RequestOption) (*T, error) {
	if e.err != nil {
		return nil, e.err
	}
	var out T
	r := &adminbridge.Request{Method: http.MethodPost, Path: e.path, Form: form, Betas: e.betas, Out: &out, Retry: retry, Credential: e.cred}
	if err := adminbridge.Send(ctx, e.c.cfg, opts, r); err != nil {
		return nil, err
	}
	return &out, nil
}

// download streams the answer of GET e's path.
func (e endpoint[T]) download(ctx context.Context, opts []option.RequestOption) (*mms.FileDownload, error) {
	if e.err != nil {
		return nil, e.err
	}
	out := new(mms.FileDownload)
	r := &adminbridge.Request{Method: http.MethodGet, Path: e.path, Betas: e.betas, Out: out, Retry: transport.Safe, Credential: e.cred, Download: true}
	if err := adminbridge.Send(ctx, e.c.cfg, opts, r); err != nil {
		return nil, err
	}
	return out, nil
}

// PluginCreateParams are the parameters of [PluginsService.Create].
type PluginCreateParams struct {
	// Files are the first version's files, its manifest among them.
	// Required.
	Files []PluginFile
	// MarketplaceID puts the plugin in a marketplace.
	MarketplaceID string
	// ReleaseNotes describe the version.
	ReleaseNotes string
}

// Validate reports no files, a file without a reader, an unclean or
// repeated path, or a bad content type or size.
func (p PluginCreateParams) Validate() error { return validatePluginFiles(p.Files) }

// TimeFilter bounds a time: each set bound is sent as
// created_at[gt|gte|lt|lte].
type TimeFilter struct {
	// GT and GTE are lower bounds (exclusive, inclusive); at most one.
	GT, GTE time.Time
	// LT and LTE are upper bounds (exclusive, inclusive); at most one.
	LT, LTE time.Time
}

func (f TimeFilter) validate(field string) error {
	if !f.GT.IsZero() && !f.GTE.IsZero() {
		return invalid(field+".gt", "cannot be used together with gte")
	}
	if !f.LT.IsZero() && !f.LTE.IsZero() {
		return invalid(field+".lt", "cannot be used together with lte")
	}
	lo, hi := f.GT, f.LT
	if lo.IsZero() {
		lo = f.GTE
	}
	if hi.IsZero() {
		hi = f.LTE
	}
	if !lo.IsZero() && !hi.IsZero() && hi.Before(lo) {
		return invalid(field, "the upper bound is before the lower bound")
	}
	return nil
}

func (f TimeFilter) add(q url.Values, key string) {
	for op, t := range map[string]time.Time{"gt": f.GT, "gte": f.GTE, "lt": f.LT, "lte": f.LTE} {
		if !t.IsZero() {
			q.Set(key+"["+op+"]", t.UTC().Format(time.RFC3339))
		}
	}
}

// PluginListParams are the parameters of [PluginsService.List] (cursor
// scheme).
type PluginListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// MarketplaceID, OwnerType ("organization" or "user") and OwnerUserID
	// filter the list.
	MarketplaceID, OwnerType, OwnerUserID string
	// OrganizationID reads a child organization's plugins.
	OrganizationID string
	// CreatedAt bounds the creation time.
	CreatedAt TimeFilter
}

// Validate reports Limit outside 1–1000 or conflicting time bounds.
func (p PluginListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	return p.CreatedAt.validate("created_at")
}

func (p PluginListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "marketplace_id", p.MarketplaceID)
	setString(a.query, "owner_type", p.OwnerType)
	setString(a.query, "owner_user_id", p.OwnerUserID)
	setString(a.query, "organization_id", p.OrganizationID)
	p.CreatedAt.add(a.query, "created_at")
	return a
}

// PluginPinParams are the parameters of [PluginsService.Pin].
//
//mms:json
type PluginPinParams struct {
	// ServedVersionID is the version members get. Required.
	ServedVersionID string `json:"served_version_id"`
}

// Validate reports a missing version id.
func (p PluginPinParams) Validate() error { return required("served_version_id", p.ServedVersionID) }

func (s *PluginsService) all() endpoint[Plugin] {
	return ep[Plugin](s.c, adminbridge.AdminKey, "/plugins").beta(wire.BetaPlugins)
}

func (s *PluginsService) at(id string) endpoint[Plugin] { return s.all().id("plugin_id", id) }

// Create uploads a plugin's first version (POST /v1/organizations/plugins,
// multipart/form-data, one files[] part per file). A taken name answers
// 409 plugin_name_taken (details.plugin_id), a clashing skill name 409
// skill_name_taken. Creating: after an unknown outcome the error matches
// mms.ErrMaybeApplied.
func (s *PluginsService) Create(ctx context.Context, p PluginCreateParams, opts ...option.RequestOption) (*Plugin, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return s.all().upload(ctx, pluginForm(p.Files, "marketplace_id", p.MarketplaceID, "release_notes", p.ReleaseNotes), transport.Creating, opts)
}

// Get retrieves a plugin.
func (s *PluginsService) Get(ctx context.Context, pluginID string, opts ...option.RequestOption) (*Plugin, error) {
	return s.at(pluginID).get(ctx, opts)
}

// List iterates over the plugins (cursor scheme).
func (s *PluginsService) List(ctx context.Context, p PluginListParams, opts ...option.RequestOption) iter.Seq2[Plugin, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Delete deletes a plugin and every version of it, permanently (plugins
// of manual marketplaces only).
func (s *PluginsService) Delete(ctx context.Context, pluginID string, opts ...option.RequestOption) (*PluginDeleted, error) {
	return as[PluginDeleted](s.at(pluginID)).delete(ctx, opts)
}

// Pin pins the version members get (POST /v1/organizations/plugins/{id});
// a pin cannot currently be undone. While the version is being scanned the
// service answers 409 scan_pending.
func (s *PluginsService) Pin(ctx context.Context, pluginID string, p PluginPinParams, opts ...option.RequestOption) (*Plugin, error) {
	return s.at(pluginID).update(ctx, p, opts)
}

// PluginVersionsService manages a plugin's versions
// (…/plugins/{plugin_id}/versions).
type PluginVersionsService struct{ c *Client }

// PluginVersion is a version's record (the wire type "plugin_version").
//
//mms:json type=plugin_version
type PluginVersion struct {
	// ID identifies the version; PluginID its plugin.
	ID       string `json:"id"`
	PluginID string `json:"plugin_id"`
	// DisplayName, Description and ManifestVersion are the manifest's.
	DisplayName     string  `json:"display_name"`
	Description     *string `json:"description"`
	ManifestVersion *string `json:"manifest_version"`
	// ReleaseNotes describe the version.
	ReleaseNotes *string `json:"release_notes"`
	// Components, ContentScan, Reach and CreatedBy as on [Plugin].
	Components  []json.RawMessage `json:"components"`
	ContentScan json.RawMessage   `json:"content_scan"`
	Reach       json.RawMessage   `json:"reach"`
	CreatedBy   json.RawMessage   `json:"created_by"`
	// CreatedAt is when it was uploaded.
	CreatedAt time.Time `json:"created_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// PluginVersionCreateParams are the parameters of
// [PluginVersionsService.Create].
type PluginVersionCreateParams struct {
	// Files are the version's files, its manifest among them. Required.
	Files []PluginFile
	// ReleaseNotes describe the version.
	ReleaseNotes string
}

// Validate applies the file rules of [PluginCreateParams.Validate].
func (p PluginVersionCreateParams) Validate() error { return validatePluginFiles(p.Files) }

func (s *PluginVersionsService) all(pluginID string) endpoint[PluginVersion] {
	return ep[PluginVersion](s.c, adminbridge.AdminKey, "/plugins").beta(wire.BetaPlugins).id("plugin_id", pluginID).sub("/versions")
}

// Create uploads a new version (multipart/form-data). Creating.
func (s *PluginVersionsService) Create(ctx context.Context, pluginID string, p PluginVersionCreateParams, opts ...option.RequestOption) (*PluginVersion, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return s.all(pluginID).upload(ctx, pluginForm(p.Files, "release_notes", p.ReleaseNotes), transport.Creating, opts)
}

// Get retrieves a version by id.
func (s *PluginVersionsService) Get(ctx context.Context, pluginID, version string, opts ...option.RequestOption) (*PluginVersion, error) {
	return s.all(pluginID).id("version", version).get(ctx, opts)
}

// List iterates over the versions (cursor scheme).
func (s *PluginVersionsService) List(ctx context.Context, pluginID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[PluginVersion, error] {
	return s.all(pluginID).list(ctx, adminbridge.Cursor, p, opts)
}

// Download streams the version as stored, a .zip (application/zip).
// Close the body when done; the per-attempt timeout covers the wait for
// the headers, not the reading.
func (s *PluginVersionsService) Download(ctx context.Context, pluginID, version string, opts ...option.RequestOption) (*mms.FileDownload, error) {
	return s.all(pluginID).id("version", version).sub("/content").download(ctx, opts)
}

// PluginInstallationSettingsService sets where an organization-owned
// plugin is installed (…/plugins/{plugin_id}/installation_settings).
type PluginInstallationSettingsService struct{ c *Client }

// PluginInstallationSetting is one target's installation preference.
//
//mms:json
type PluginInstallationSetting struct {
	// PluginID is the plugin.
	PluginID string `json:"plugin_id"`
	// Target is whom the setting is for, as the service describes it.
	Target json.RawMessage `json:"target"`
	// InstallationPreference is the preference.
	InstallationPreference string `json:"installation_preference"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// PluginInstallationSettingDeleted is the answer to
// [PluginInstallationSettingsService.Delete].
//
//mms:json
type PluginInstallationSettingDeleted struct {
	// Extra holds the answer's members (this SDK version models none).
	Extra map[string]json.RawMessage `json:"-"`
}

// PluginTargetListParams are the parameters of the installation setting
// and share lists (cursor scheme).
type PluginTargetListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// TargetType lists only targets of this type.
	TargetType string
}

// Validate reports Limit outside 1–1000.
func (p PluginTargetListParams) Validate() error { return validateLimit(p.Limit, 1000) }

func (p PluginTargetListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "target_type", p.TargetType)
	return a
}

// PluginInstallationSettingParams are the parameters of
// [PluginInstallationSettingsService.Set].
//
//mms:json
type PluginInstallationSettingParams struct {
	// InstallationPreference is the preference. Required.
	InstallationPreference string `json:"installation_preference"`
}

// Validate reports a missing preference.
func (p PluginInstallationSettingParams) Validate() error {
	return required("installation_preference", p.InstallationPreference)
}

func (s *PluginInstallationSettingsService) all(pluginID string) endpoint[PluginInstallationSetting] {
	return ep[PluginInstallationSetting](s.c, adminbridge.AdminKey, "/plugins").beta(wire.BetaPlugins).id("plugin_id", pluginID).sub("/installation_settings")
}

// List iterates over the plugin's installation settings.
func (s *PluginInstallationSettingsService) List(ctx context.Context, pluginID string, p PluginTargetListParams, opts ...option.RequestOption) iter.Seq2[PluginInstallationSetting, error] {
	return s.all(pluginID).list(ctx, adminbridge.Cursor, p, opts)
}

// Set sets a target's preference (organization-owned plugins only);
// idempotent.
func (s *PluginInstallationSettingsService) Set(ctx context.Context, pluginID, target string, p PluginInstallationSettingParams, opts ...option.RequestOption) (*PluginInstallationSetting, error) {
	return s.all(pluginID).id("target", target).update(ctx, p, opts)
}

// Delete removes a target's setting.
func (s *PluginInstallationSettingsService) Delete(ctx context.Context, pluginID, target string, opts ...option.RequestOption) (*PluginInstallationSettingDeleted, error) {
	return as[PluginInstallationSettingDeleted](s.all(pluginID).id("target", target)).delete(ctx, opts)
}

// PluginSharesService lists whom a member-owned plugin is shared with
// (…/plugins/{plugin_id}/shares; read-only).
type PluginSharesService struct{ c *Client }

// PluginShare is one share of a plugin.
//
//mms:json
type PluginShare struct {
	// PluginID is the plugin.
	PluginID string `json:"plugin_id"`
	// Target is whom it is shared with, as the service describes it.
	Target json.RawMessage `json:"target"`
	// GrantedAt is when it was shared.
	GrantedAt time.Time `json:"granted_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// List iterates over the plugin's shares.
func (s *PluginSharesService) List(ctx context.Context, pluginID string, p PluginTargetListParams, opts ...option.RequestOption) iter.Seq2[PluginShare, error] {
	return ep[PluginShare](s.c, adminbridge.AdminKey, "/plugins").beta(wire.BetaPlugins).id("plugin_id", pluginID).sub("/shares").
		list(ctx, adminbridge.Cursor, p, opts)
}
