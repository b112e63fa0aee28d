package mms

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// SkillsService creates, lists, retrieves and deletes skills (/v1/skills);
// Versions handles their versions (/v1/skills/{skill_id}/versions). Reach it
// as client.Skills. Under API version 2023-06-01 every call sends the
// skills-2025-10-02 beta ([BetaSkills]) unless
// option.WithoutEndpointBeta(mms.BetaSkills) is given, and gets the beta
// shape; under 2026-10-21 none is sent and the service answers the GA
// shape ([Skill] decodes both; option.WithBeta(mms.BetaSkills) selects the
// old one again).
//
// A skill is a directory of files with a SKILL.md at its top, uploaded as
// one version at a time: each [SkillFile] is named by its path starting
// with that directory ("my-skill/SKILL.md", "my-skill/scripts/run.py").
type SkillsService struct {
	client *Client
	// Versions creates, lists, retrieves and deletes the versions of a
	// skill.
	Versions *SkillVersionsService
}

// SkillVersionsService handles the versions of a skill
// (/v1/skills/{skill_id}/versions). Reach it as client.Skills.Versions.
type SkillVersionsService struct {
	client *Client
}

// SkillFile is one file of a skill upload.
type SkillFile struct {
	// Path is the file's path in the skill, starting with the skill's
	// top-level directory and using forward slashes: "my-skill/SKILL.md".
	// (On Windows, backslashes are turned into slashes.)
	Path string
	// Reader supplies the content, streamed as the request is sent. The
	// upload is retried on failure only when every file's Reader is an
	// io.ReadSeeker (see [FileUploadParams.Reader]).
	Reader io.Reader
	// ContentType is the file's media type; when empty it comes from the
	// extension, else from sniffing the first 512 bytes.
	ContentType string
	// Size is the content's length for readers that cannot tell it; 0 or -1
	// mean unknown (see [FileUploadParams.Size]).
	Size int64
}

// skillMD is the file every skill has at the top of its directory.
const skillMD = "SKILL.md"

// validateSkillFiles applies the service's rules on a skill upload: at
// least one file; each path relative and clean, with a top-level directory
// ("a bare SKILL.md is rejected: it must be exactly in the top-level
// folder"); every file under the same top-level directory, no path twice;
// and a SKILL.md directly in that directory.
func validateSkillFiles(files []SkillFile) error {
	if len(files) == 0 {
		return invalid("files", "must hold at least one file: the skill's SKILL.md and the files next to it")
	}
	var top string
	seen := make(map[string]bool, len(files))
	hasSkillMD := false
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
			return invalid(field, "must be relative, starting with the skill's top-level directory, got %q", f.Path)
		case path.Clean(p) != p || p == "." || strings.HasPrefix(p, "../"):
			return invalid(field, "must be a clean relative path without '.', '..' or empty segments, got %q", f.Path)
		case f.ContentType != "" && strings.ContainsAny(f.ContentType, "\r\n\x00"):
			return invalid(fmt.Sprintf("files[%d].content_type", i), "must not contain line breaks or NUL")
		case f.Size < -1:
			return invalid(fmt.Sprintf("files[%d].size", i), "must be the content's length, or 0 or -1 for unknown, got %d", f.Size)
		}
		dir, rest, nested := strings.Cut(p, "/")
		if !nested {
			if p == skillMD {
				return invalid(field, "SKILL.md must be exactly in the top-level folder: name it <skill-directory>/SKILL.md, got %q", f.Path)
			}
			return invalid(field, "must start with the skill's top-level directory (e.g. my-skill/%s), got %q", p, f.Path)
		}
		if top == "" {
			top = dir
		} else if dir != top {
			return invalid(field, "all files must share one top-level directory: %q is not under %q (the directory of files[0])", f.Path, top+"/")
		}
		if seen[p] {
			return invalid(field, "duplicate path %q", f.Path)
		}
		seen[p] = true
		hasSkillMD = hasSkillMD || rest == skillMD
	}
	if !hasSkillMD {
		return invalid("files", "the top-level directory %q must contain SKILL.md at its root (%s/SKILL.md)", top, top)
	}
	return nil
}

// skillForm builds the multipart body of a skill or version upload.
func skillForm(ctx context.Context, labelField, label string, files []SkillFile) (*multipart.Form, error) {
	form := multipart.New()
	if label != "" {
		form.AddField(labelField, label)
	}
	for _, f := range files {
		p := filepath.ToSlash(f.Path)
		src := multipart.NewSource(f.Reader, f.Size)
		ct := f.ContentType
		if ct == "" {
			var err error
			if ct, err = detectContentType(ctx, path.Base(p), src); err != nil {
				return nil, fmt.Errorf("mms: reading the start of %q to detect its content type: %w", p, err)
			}
		}
		form.AddFile("files[]", p, ct, src)
	}
	return form, nil
}

// SkillFilesFromFS reads the skill directory dir of fsys into memory and
// returns its regular files, named dir's base name plus their path below
// dir ("my-skill/SKILL.md", "my-skill/scripts/run.py"). The readers are
// *bytes.Readers, so an upload of them is retried on failure. For very
// large files, open them yourself and pass *os.File readers instead.
func SkillFilesFromFS(fsys fs.FS, dir string) ([]SkillFile, error) {
	top := path.Base(dir)
	if top == "." || top == "/" {
		return nil, fmt.Errorf("mms: SkillFilesFromFS: %q does not name the skill's directory; pass the directory itself (e.g. os.DirFS(parent), \"my-skill\")", dir)
	}
	var files []SkillFile
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		files = append(files, SkillFile{Path: top + "/" + rel, Reader: bytes.NewReader(data)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mms: reading the skill directory %q: %w", dir, err)
	}
	return files, nil
}

// SkillFilesFromDir is [SkillFilesFromFS] on the operating system's
// directory dir: the paths start with dir's base name.
func SkillFilesFromDir(dir string) ([]SkillFile, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("mms: SkillFilesFromDir: %w", err)
	}
	return SkillFilesFromFS(os.DirFS(filepath.Dir(abs)), filepath.Base(abs))
}

// SkillCreateParams are the parameters of [SkillsService.Create].
type SkillCreateParams struct {
	// DisplayTitle is a label for people; it is not sent to the model. It
	// is the beta shape's field (display_title): a call that sends no
	// skills beta (API version 2026-10-21) refuses it; use DisplayName.
	DisplayTitle string
	// DisplayName is the GA shape's label (display_name): one line, at most
	// 255 characters. A call that sends the skills beta (the default under
	// 2023-06-01) refuses it; use DisplayTitle.
	DisplayName string
	// Files are the skill's files, the first version (see [SkillFile]).
	Files []SkillFile
}

// Validate reports the first rule the params break (see [SkillFile]): no
// files, a path without a top-level directory (a bare SKILL.md), files
// under different top-level directories, a duplicate or unclean path, or
// no SKILL.md directly in the top-level directory.
func (p SkillCreateParams) Validate() error { return validateSkillFiles(p.Files) }

// Create creates a skill from its first version's files (POST /v1/skills,
// multipart/form-data with one files[] part per file). The files are
// checked first (see [SkillCreateParams.Validate]); a *ValidationError
// means nothing was sent. The name and description of the version come
// from SKILL.md.
func (s *SkillsService) Create(ctx context.Context, p SkillCreateParams, opts ...option.RequestOption) (*Skill, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cl := s.client.newCall(opts)
	if cl.err != nil {
		return nil, cl.err
	}
	field, label := "display_title", p.DisplayTitle
	switch ga := skillsGA(cl.cfg); {
	case ga && p.DisplayTitle != "":
		return nil, invalid("display_title", "is the beta shape's field: this call sends no %s beta (API version %s), so the GA shape names it display_name; set DisplayName",
			BetaSkills, callVersion(cl.cfg))
	case !ga && p.DisplayName != "":
		return nil, invalid("display_name", "is the GA shape's field: this call sends the %s beta, whose shape names it display_title; set DisplayTitle, or send option.WithVersion(%q)",
			BetaSkills, APIVersion20261021)
	case ga:
		field, label = "display_name", p.DisplayName
	}
	form, err := skillForm(ctx, field, label, p.Files)
	if err != nil {
		return nil, err
	}
	return s.all().upload(ctx, form, opts)
}

// SkillListParams are the parameters of [SkillsService.List] and
// [SkillsService.ListPage].
type SkillListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// Source keeps only custom (user-created) or vendor (built-in) skills;
	// "" lists both.
	Source SkillSource
}

// Validate reports the first rule the params break: Limit outside 1–1000
// when set.
func (p SkillListParams) Validate() error {
	return validateLimit(p.Limit, 1000)
}

func (p SkillListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	if p.Source != "" {
		q.Set("source", string(p.Source))
	}
	return listArgs{query: q, start: listPos{page: p.Page}}
}

// skillsBetas is the endpoint beta list of every skills request (dropped
// under API version 2026-10-21: transport.MergeBetas).
var skillsBetas = []string{wire.BetaSkills}

// skillsGA reports whether a call with cfg gets the GA shapes: it sends API
// version 2026-10-21 and no skills beta (not from the endpoint, the options
// or a header). Under 2023-06-01 the SDK keeps the beta shape's form, as
// mmstest keeps its records.
func skillsGA(cfg *config.Config) bool {
	if !wire.VersionRefuses(callVersion(cfg)) {
		return false
	}
	if slices.Contains(transport.MergeBetas(cfg, skillsBetas), wire.BetaSkills) {
		return false
	}
	for _, v := range cfg.Header.Values(wire.HeaderBeta) {
		if slices.Contains(strings.Split(strings.ReplaceAll(v, " ", ""), ","), wire.BetaSkills) {
			return false
		}
	}
	return true
}

// skillsEndpoint is the skills endpoint at path (escaped), the beta added,
// answering a T.
func skillsEndpoint[T any](c *Client, path string) endpoint[T] {
	return endpoint[T]{c: c, path: path, betas: skillsBetas}
}

// List iterates over the skills, fetching pages of p.Limit as it goes
// (GET /v1/skills, cursor scheme: page = next_page while has_more).
// Nothing is sent before the loop starts; ranging again lists again from
// p.Page; an error is yielded once, last.
func (s *SkillsService) List(ctx context.Context, p SkillListParams, opts ...option.RequestOption) iter.Seq2[Skill, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of skills (GET /v1/skills). Continue with Page
// set to the page's *NextPage while HasMore is true.
func (s *SkillsService) ListPage(ctx context.Context, p SkillListParams, opts ...option.RequestOption) (*Page[Skill], error) {
	return s.all().listPage(ctx, p, opts)
}

// Get retrieves a skill (GET /v1/skills/{skill_id}).
func (s *SkillsService) Get(ctx context.Context, skillID string, opts ...option.RequestOption) (*Skill, error) {
	return s.at(skillID).get(ctx, opts)
}

// Delete deletes a skill (DELETE /v1/skills/{skill_id}).
func (s *SkillsService) Delete(ctx context.Context, skillID string, opts ...option.RequestOption) (*SkillDeleted, error) {
	return as[SkillDeleted](s.at(skillID)).delete(ctx, opts)
}

// SkillVersionCreateParams are the parameters of
// [SkillVersionsService.Create].
type SkillVersionCreateParams struct {
	// Files are the version's files, under the same rules as
	// [SkillCreateParams.Files].
	Files []SkillFile
}

// Validate reports the first rule the files break (see
// [SkillCreateParams.Validate]).
func (p SkillVersionCreateParams) Validate() error { return validateSkillFiles(p.Files) }

// Create uploads a new version of a skill (POST
// /v1/skills/{skill_id}/versions, multipart/form-data with one files[] part
// per file); it becomes the skill's latest version.
func (s *SkillVersionsService) Create(ctx context.Context, skillID string, p SkillVersionCreateParams, opts ...option.RequestOption) (*SkillVersion, error) {
	e := s.all(skillID).checked(p)
	if e.err != nil {
		return nil, e.err
	}
	form, err := skillForm(ctx, "", "", p.Files)
	if err != nil {
		return nil, err
	}
	return e.upload(ctx, form, opts)
}

// SkillVersionListParams are the parameters of [SkillVersionsService.List]
// and [SkillVersionsService.ListPage].
type SkillVersionListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
}

// Validate reports the first rule the params break: Limit outside 1–1000
// when set.
func (p SkillVersionListParams) Validate() error {
	return validateLimit(p.Limit, 1000)
}

func (p SkillVersionListParams) listArgs() listArgs {
	return listArgs{query: limitQuery(p.Limit), start: listPos{page: p.Page}}
}

// List iterates over a skill's versions, newest first (GET
// /v1/skills/{skill_id}/versions, cursor scheme), fetching pages as it
// goes. Nothing is sent before the loop starts; an error is yielded once,
// last.
func (s *SkillVersionsService) List(ctx context.Context, skillID string, p SkillVersionListParams, opts ...option.RequestOption) iter.Seq2[SkillVersion, error] {
	return s.all(skillID).list(ctx, p, opts)
}

// ListPage fetches one page of a skill's versions (GET
// /v1/skills/{skill_id}/versions).
func (s *SkillVersionsService) ListPage(ctx context.Context, skillID string, p SkillVersionListParams, opts ...option.RequestOption) (*Page[SkillVersion], error) {
	return s.all(skillID).listPage(ctx, p, opts)
}

// Get retrieves one version of a skill (GET
// /v1/skills/{skill_id}/versions/{version}); version is the version
// string, e.g. "1759178010641129" (beta shape), or the version's ID,
// "skver_…" (GA shape).
func (s *SkillVersionsService) Get(ctx context.Context, skillID, version string, opts ...option.RequestOption) (*SkillVersion, error) {
	return s.at(skillID, version).get(ctx, opts)
}

// Delete deletes one version of a skill (DELETE
// /v1/skills/{skill_id}/versions/{version}).
func (s *SkillVersionsService) Delete(ctx context.Context, skillID, version string, opts ...option.RequestOption) (*SkillVersionDeleted, error) {
	return as[SkillVersionDeleted](s.at(skillID, version)).delete(ctx, opts)
}

// SkillSource says who made a skill. Unknown values pass through.
type SkillSource string

// The skill sources.
const (
	SkillSourceCustom        SkillSource = "custom"         // created by a user
	SkillSourceVendor        SkillSource = "vendor"         // built in
	SkillSourceVendorExample SkillSource = "vendor_example" // a vendor sample (GA shape)
	SkillSourcePlugin        SkillSource = "plugin"         // from an installed plugin (GA shape)
)

// Skill is a skill's record (the wire type "skill"), in either shape: the
// beta shape (display_title, latest_version, source as a string), which
// the skills-2025-10-02 beta selects, or the GA shape (display_name,
// latest_version_id, source as {"type":…}), which a request without it
// gets (API version 2026-10-21 sends none). Members this SDK version does
// not model are kept in Extra, so json.Marshal writes a reply back without
// loss, in the shape it came in.
//
//mms:json spec=skillSpec
type Skill struct {
	// ID identifies the skill.
	ID string `json:"id"`
	// DisplayTitle is the label given at creation (beta shape); nil when
	// null or absent.
	DisplayTitle *string `json:"display_title,omitzero"`
	// LatestVersion is the newest version's identifier (beta shape); nil
	// when null or absent.
	LatestVersion *string `json:"latest_version,omitzero"`
	// DisplayName is the skill's label (GA shape): one line, at most 255
	// characters, from SKILL.md's name when none was given; not unique.
	DisplayName string `json:"display_name,omitzero"`
	// LatestVersionID is the id of the newest version, what "latest"
	// resolves to (GA shape).
	LatestVersionID string `json:"latest_version_id,omitzero"`
	// Source says who made the skill: a string in the beta shape, the
	// object's type in the GA shape (SourceObject).
	Source SkillSource `json:"source"`
	// SourceObject is set when the wire wrote source as {"type":…} (the GA
	// shape), so the record encodes back in that form.
	SourceObject bool `json:"-"`
	// CreatedAt and UpdatedAt are ISO 8601 strings as the service sent
	// them (see [Skill.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// skillSpec reads and writes Skill.source in the form it came in: a
// string (beta shape) or {"type":…} (GA shape, SourceObject).
var skillSpec = codec.Spec{Type: "skill", Fields: map[string]codec.FieldCodec{"source": {
	Encode: func(e *codec.Encoder, parent reflect.Value) error {
		src := parent.FieldByName("Source").String()
		if parent.FieldByName("SourceObject").Bool() {
			return e.Any(struct {
				Type string `json:"type"`
			}{src})
		}
		e.String(src)
		return nil
	},
	Decode: func(value []byte, parent reflect.Value) error {
		var src string
		object := len(value) > 0 && value[0] == '{'
		if object {
			var o struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(value, &o); err != nil {
				return err
			}
			src = o.Type
		} else if !codec.IsNull(value) {
			if err := json.Unmarshal(value, &src); err != nil {
				return err
			}
		}
		parent.FieldByName("Source").SetString(src)
		parent.FieldByName("SourceObject").SetBool(object)
		return nil
	},
}}}

// Created parses CreatedAt.
func (s Skill) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, s.CreatedAt) }

// SkillVersion is the record of one version of a skill (the wire type
// "skill_version").
//
//mms:json type=skill_version
type SkillVersion struct {
	// ID identifies the version record.
	ID string `json:"id"`
	// SkillID is the skill's id.
	SkillID string `json:"skill_id"`
	// Version is the version identifier, a numeric string based on the Unix
	// epoch, e.g. "1759178010641129" (beta shape; the GA shape addresses a
	// version by its ID, "skver_…", and has no Version).
	Version string `json:"version,omitzero"`
	// Name and Description come from the version's SKILL.md; in the GA
	// shape Name is the skill's immutable slug.
	Name        string `json:"name"`
	Description string `json:"description"`
	// Directory is the top-level directory of the upload (beta shape).
	Directory string `json:"directory,omitzero"`
	// CreatedAt is an ISO 8601 string as the service sent it.
	CreatedAt string `json:"created_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (v SkillVersion) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, v.CreatedAt) }

// SkillDeleted is the answer to [SkillsService.Delete] (the wire type
// "skill_deleted").
//
//mms:json type=skill_deleted
type SkillDeleted struct {
	// ID is the deleted skill's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Deprecated: use SkillDeleted.
type DeletedSkill = SkillDeleted

// SkillVersionDeleted is the answer to [SkillVersionsService.Delete] (the
// wire type "skill_version_deleted").
//
//mms:json type=skill_version_deleted
type SkillVersionDeleted struct {
	// ID is the deleted version's identifier.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Deprecated: use SkillVersionDeleted.
type DeletedSkillVersion = SkillVersionDeleted

// all is the skills' endpoint (/v1/skills).
func (s *SkillsService) all() endpoint[Skill] { return skillsEndpoint[Skill](s.client, "/v1/skills") }

// at is one skill's endpoint (/v1/skills/{skill_id}).
func (s *SkillsService) at(skillID string) endpoint[Skill] {
	return s.all().id("skill_id", skillID)
}

// all is a skill's versions' endpoint (/v1/skills/{skill_id}/versions).
func (s *SkillVersionsService) all(skillID string) endpoint[SkillVersion] {
	return skillsEndpoint[SkillVersion](s.client, "/v1/skills").id("skill_id", skillID).sub("/versions")
}

// at is one skill version's endpoint
// (/v1/skills/{skill_id}/versions/{version}).
func (s *SkillVersionsService) at(skillID, version string) endpoint[SkillVersion] {
	return s.all(skillID).id("version", version)
}
