package mmstest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Skills endpoints:
//
//   - POST /v1/skills takes multipart/form-data: one "files[]" part per
//     file, named by its path below one top-level directory that holds
//     SKILL.md ("my-skill/SKILL.md", "my-skill/scripts/run.py"), and an
//     optional "display_title" field. The paths are checked as the service
//     does (a bare SKILL.md "must be exactly in the top-level folder"; one
//     top-level directory; no duplicates), then SKILL.md must open with
//     YAML front matter giving name and description (an inference: the
//     version record's name and description come from it). The result is a
//     custom skill with its first version.
//   - POST /v1/skills/{skill_id}/versions takes the same files[] parts and
//     nothing else; the new version becomes latest_version.
//   - GET /v1/skills (limit 1-1000, default 20; source custom|vendor) and
//     GET /v1/skills/{skill_id}/versions (limit 1-1000) list newest first
//     by the cursor scheme: data, has_more and next_page, an opaque token
//     given back as page.
//   - GET and DELETE /v1/skills/{skill_id} and
//     /v1/skills/{skill_id}/versions/{version}; unknown ids are a 404.
//     Deleting the latest version makes the next newest one latest (null
//     when none is left).
//
// Version identifiers are microseconds since the Unix epoch on the
// server's clock, made strictly increasing.
//
// A request carrying the skills-2025-10-02 beta, or sent with 2023-06-01,
// gets the beta shape above; a 2026-10-21 request without it (what the SDK
// sends under that version) gets the GA shape (skills.md "Additions from R2"): display_name (from SKILL.md's name
// when none was given) instead of display_title, latest_version_id instead
// of latest_version, source as {"type":"custom"}, versions without version
// and directory and addressed by their id in paths (the version string
// still resolves), and the create form's display_name field.

// skillStore holds a server's skills (Server.skills).
type skillStore struct {
	srv         *Server
	blobs       blobDir
	mu          sync.Mutex
	skills      []*storedSkill // in creation order
	lastVersion int64
}

func newSkillStore(s *Server) *skillStore {
	return &skillStore{srv: s, blobs: blobDir{srv: s}}
}

type storedSkill struct {
	id           string
	displayTitle *string
	created      time.Time
	updated      time.Time
	versions     []*storedSkillVersion // in creation order
}

type storedSkillVersion struct {
	id, version, name, description, directory string
	created                                   time.Time
	files                                     []skillFile
}

type skillFile struct {
	path    string
	content *blob
}

// skillWire and skillVersionWire are the records; ga selects the GA shape
// (see MarshalJSON).
type skillWire struct {
	// GA and the GA-only members are set only for the GA shape.
	GA              bool    `json:"-"`
	DisplayName     string  `json:"-"`
	LatestVersionID string  `json:"-"`
	Type            string  `json:"type"`
	ID              string  `json:"id"`
	DisplayTitle    *string `json:"display_title"`
	LatestVersion   *string `json:"latest_version"`
	Source          string  `json:"source"`
	CreatedAt       string  `json:"created_at"`
	UpdatedAt       string  `json:"updated_at"`
}

type skillVersionWire struct {
	GA          bool   `json:"-"`
	Type        string `json:"type"`
	ID          string `json:"id"`
	SkillID     string `json:"skill_id"`
	Version     string `json:"version"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Directory   string `json:"directory"`
	CreatedAt   string `json:"created_at"`
}

// skillsGA reports whether r gets the GA shape: sent with API version
// 2026-10-21 and no skills beta. (The service picks the shape by the beta
// alone; the fake keeps the beta shape for every 2023-06-01 request, as
// before the GA shape existed.)
func skillsGA(r *http.Request) bool {
	return wire.VersionRefuses(requestVersion(r)) && !hasBeta(betaNames(r.Header), wire.BetaSkills)
}

func (k *storedSkill) record(ga bool) skillWire {
	rec := skillWire{Type: "skill", ID: k.id, DisplayTitle: k.displayTitle, Source: "custom",
		CreatedAt: k.created.UTC().Format(fileTimeLayout), UpdatedAt: k.updated.UTC().Format(fileTimeLayout)}
	if n := len(k.versions); n > 0 {
		v := k.versions[n-1].version
		rec.LatestVersion = &v
	}
	if !ga {
		return rec
	}
	rec.GA = true
	if n := len(k.versions); n > 0 {
		rec.LatestVersionID = k.versions[n-1].id
	}
	switch {
	case k.displayTitle != nil:
		rec.DisplayName = *k.displayTitle
	case len(k.versions) > 0:
		rec.DisplayName = k.versions[0].name
	}
	return rec
}

// MarshalJSON writes the beta or the GA shape.
func (w skillWire) MarshalJSON() ([]byte, error) {
	type beta skillWire // without the method
	if !w.GA {
		return json.Marshal(beta(w))
	}
	type source struct {
		Type string `json:"type"`
	}
	return json.Marshal(struct {
		Type            string `json:"type"`
		ID              string `json:"id"`
		DisplayName     string `json:"display_name"`
		LatestVersionID string `json:"latest_version_id"`
		Source          source `json:"source"`
		CreatedAt       string `json:"created_at"`
		UpdatedAt       string `json:"updated_at"`
	}{w.Type, w.ID, w.DisplayName, w.LatestVersionID, source{w.Source}, w.CreatedAt, w.UpdatedAt})
}

func (v *storedSkillVersion) record(skillID string, ga bool) skillVersionWire {
	return skillVersionWire{GA: ga, Type: "skill_version", ID: v.id, SkillID: skillID, Version: v.version, Name: v.name,
		Description: v.description, Directory: v.directory, CreatedAt: v.created.UTC().Format(fileTimeLayout)}
}

// MarshalJSON writes the beta or the GA shape (no version, no directory).
func (w skillVersionWire) MarshalJSON() ([]byte, error) {
	type beta skillVersionWire // without the method
	if !w.GA {
		return json.Marshal(beta(w))
	}
	return json.Marshal(struct {
		Type        string `json:"type"`
		ID          string `json:"id"`
		SkillID     string `json:"skill_id"`
		Name        string `json:"name"`
		Description string `json:"description"`
		CreatedAt   string `json:"created_at"`
	}{w.Type, w.ID, w.SkillID, w.Name, w.Description, w.CreatedAt})
}

// removeFiles deletes the stored contents of a version.
func (v *storedSkillVersion) removeFiles() {
	for _, f := range v.files {
		f.content.remove()
	}
}

// readSkillForm parses a skill or version upload; withTitle allows the
// display_title field (display_name in the GA shape).
func (st *skillStore) readSkillForm(r *http.Request, withTitle bool) (v *storedSkillVersion, title *string, err *apiError) {
	mr, err := formReader(r)
	if err != nil {
		return nil, nil, err
	}
	v = &storedSkillVersion{}
	titleField := "display_title"
	if skillsGA(r) {
		titleField = "display_name"
	}
	defer func() {
		if err != nil {
			v.removeFiles()
		}
	}()
	for {
		part, name, filename, isFile, err := nextFormPart(mr)
		if err != nil {
			return v, nil, err
		}
		if part == nil {
			break
		}
		switch {
		case name == "files[]" || name == "files":
			if !isFile {
				return v, nil, invalid("files: expected file parts (Content-Disposition with a filename), got a text field")
			}
			content, serr := st.blobs.storeBlob(part)
			if serr != nil {
				return v, nil, invalid("files: could not read %q: %v", filename, serr)
			}
			v.files = append(v.files, skillFile{path: filename, content: content})
		case withTitle && name == titleField:
			t, err := readTextField(name, part)
			if err != nil {
				return v, nil, err
			}
			title = &t
		default:
			return v, nil, invalid("%s: Extra inputs are not permitted", name)
		}
	}
	if err := checkSkillPaths(v); err != nil {
		return v, nil, err
	}
	if err := st.readSkillMD(v); err != nil {
		return v, nil, err
	}
	return v, title, nil
}

// checkSkillPaths applies the path rules and sets the version's directory.
func checkSkillPaths(v *storedSkillVersion) *apiError {
	if len(v.files) == 0 {
		return invalid("files: Field required: upload the skill's files as files[] parts")
	}
	seen := map[string]bool{}
	hasSkillMD := false
	for _, f := range v.files {
		p := f.path
		dir, rest, nested := strings.Cut(p, "/")
		switch {
		case p == "SKILL.md":
			return invalid("files: SKILL.md file must be exactly in the top-level folder.")
		case !nested || dir == "" || path.Clean(p) != p || strings.HasPrefix(p, "../") || strings.Contains(p, `\`):
			return invalid("files: %q: every file must be in the skill's top-level directory, as a clean relative path (e.g. my-skill/%s)", p, path.Base(p))
		case v.directory != "" && dir != v.directory:
			return invalid("files: all files must be in the same top-level directory: %q is not in %q", p, v.directory)
		case seen[p]:
			return invalid("files: duplicate file path %q", p)
		}
		v.directory = dir
		seen[p] = true
		hasSkillMD = hasSkillMD || rest == "SKILL.md"
	}
	if !hasSkillMD {
		return invalid("files: SKILL.md file must be exactly in the top-level folder: %s/SKILL.md is missing", v.directory)
	}
	return nil
}

// readSkillMD sets the version's name and description from the front
// matter of its SKILL.md.
func (st *skillStore) readSkillMD(v *storedSkillVersion) *apiError {
	i := slices.IndexFunc(v.files, func(f skillFile) bool { return f.path == v.directory+"/SKILL.md" })
	body, err := v.files[i].content.open()
	if err != nil {
		return &apiError{status: http.StatusInternalServerError, errType: wire.ErrAPI, msg: "could not read SKILL.md"}
	}
	defer body.Close()
	head, _ := io.ReadAll(io.LimitReader(body, 64<<10))
	name, description, ok := frontMatter(string(head))
	if !ok || name == "" || description == "" {
		return invalid("SKILL.md must start with YAML front matter (between --- lines) giving name and description")
	}
	v.name, v.description = name, description
	return nil
}

// frontMatter reads the name and description of a "---" delimited YAML
// front matter made of simple "key: value" lines.
func frontMatter(text string) (name, description string, ok bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	body, found := strings.CutPrefix(text, "---\n")
	if !found {
		return "", "", false
	}
	end := strings.Index(body, "\n---")
	if end < 0 {
		return "", "", false
	}
	for _, line := range strings.Split(body[:end], "\n") {
		key, value, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		switch strings.TrimSpace(key) {
		case "name":
			name = value
		case "description":
			description = value
		}
	}
	return name, description, true
}

// newVersion fills in a parsed version's identity. Callers hold st.mu.
func (st *skillStore) newVersion(v *storedSkillVersion, now time.Time) {
	n := max(now.UnixMicro(), st.lastVersion+1)
	st.lastVersion = n
	v.version = strconv.FormatInt(n, 10)
	v.id = st.srv.newID("skver_")
	v.created = now
}

// create serves POST /v1/skills.
func (st *skillStore) create(w http.ResponseWriter, r *http.Request) {
	v, title, err := st.readSkillForm(r, true)
	if err != nil {
		writeAPIError(w, r, err)
		return
	}
	now := st.srv.now()
	k := &storedSkill{id: st.srv.newID("skill_"), displayTitle: title, created: now, updated: now}
	rec := locked(&st.mu, func() skillWire {
		st.newVersion(v, now)
		k.versions = []*storedSkillVersion{v}
		st.skills = append(st.skills, k)
		return k.record(skillsGA(r))
	})
	writeJSON(w, http.StatusOK, rec)
}

// findSkill returns the skill with id; callers hold st.mu.
func (st *skillStore) findSkill(id string) *storedSkill {
	return byID(st.skills, id, func(k *storedSkill) string { return k.id })
}

// lookupSkill returns the skill named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *skillStore) lookupSkill(w http.ResponseWriter, r *http.Request) *storedSkill {
	return pathItem(w, r, st.skills, "skill_id", "Skill", func(k *storedSkill) string { return k.id })
}

// list serves GET /v1/skills, newest first, by the cursor scheme.
func (st *skillStore) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch src := q.Get("source"); src {
	case "", "custom":
	case "vendor": // the fake has no built-in skills
	default:
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest,
			fmt.Sprintf("source: Input should be 'custom' or 'vendor', got %q", src))
		return
	}
	recs := locked(&st.mu, func() []skillWire {
		if q.Get("source") == "vendor" {
			return nil
		}
		return newestFirst(st.skills, func(k *storedSkill) (skillWire, bool) { return k.record(skillsGA(r)), true })
	})
	page, err := pageSkillList(recs, func(k skillWire) string { return k.ID }, q, 1000)
	writePage(w, r, page, err)
}

// get serves GET /v1/skills/{skill_id}.
func (st *skillStore) get(w http.ResponseWriter, r *http.Request) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if k := st.lookupSkill(w, r); k != nil {
		writeJSON(w, http.StatusOK, k.record(skillsGA(r)))
	}
}

// delete serves DELETE /v1/skills/{skill_id}.
func (st *skillStore) delete(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupSkill, func(k *storedSkill) {
		st.skills = slices.DeleteFunc(st.skills, func(o *storedSkill) bool { return o == k })
		for _, v := range k.versions {
			v.removeFiles()
		}
		writeJSON(w, http.StatusOK, map[string]string{"id": k.id, "type": "skill_deleted"})
	})
}

// createVersion serves POST /v1/skills/{skill_id}/versions.
func (st *skillStore) createVersion(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("skill_id")
	exists := locked(&st.mu, func() bool { return st.findSkill(id) != nil })
	if !exists { // refuse before reading the files
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "Skill not found: "+id)
		return
	}
	v, _, err := st.readSkillForm(r, false)
	if err != nil {
		writeAPIError(w, r, err)
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	k := st.lookupSkill(w, r)
	if k == nil { // deleted meanwhile
		v.removeFiles()
		return
	}
	now := st.srv.now()
	st.newVersion(v, now)
	k.versions = append(k.versions, v)
	k.updated = now
	writeJSON(w, http.StatusOK, v.record(k.id, skillsGA(r)))
}

// listVersions serves GET /v1/skills/{skill_id}/versions, newest first.
func (st *skillStore) listVersions(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupSkill, func(k *storedSkill) {
		var recs []skillVersionWire
		for _, v := range slices.Backward(k.versions) {
			recs = append(recs, v.record(k.id, skillsGA(r)))
		}
		page, err := pageSkillList(recs, func(v skillVersionWire) string { return v.ID }, r.URL.Query(), 1000)
		writePage(w, r, page, err)
	})
}

// lookupVersion returns the skill and version named by the path, or
// answers 404 and returns nils. st.mu must be held.
func (st *skillStore) lookupVersion(w http.ResponseWriter, r *http.Request) (*storedSkill, *storedSkillVersion) {
	k := st.lookupSkill(w, r)
	if k == nil {
		return nil, nil
	}
	version := r.PathValue("version")
	// The GA shape addresses a version by its id; the version string
	// still resolves.
	i := slices.IndexFunc(k.versions, func(v *storedSkillVersion) bool { return v.version == version || v.id == version })
	if i < 0 {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, fmt.Sprintf("Skill version not found: %s of %s", version, k.id))
		return nil, nil
	}
	return k, k.versions[i]
}

// getVersion serves GET /v1/skills/{skill_id}/versions/{version}.
func (st *skillStore) getVersion(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupVersion, func(k *storedSkill, v *storedSkillVersion) {
		writeJSON(w, http.StatusOK, v.record(k.id, skillsGA(r)))
	})
}

// deleteVersion serves DELETE /v1/skills/{skill_id}/versions/{version}.
func (st *skillStore) deleteVersion(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupVersion, func(k *storedSkill, v *storedSkillVersion) {
		k.versions = slices.DeleteFunc(k.versions, func(o *storedSkillVersion) bool { return o == v })
		k.updated = st.srv.now()
		v.removeFiles()
		id := v.version
		if skillsGA(r) {
			id = v.id
		}
		writeJSON(w, http.StatusOK, map[string]string{"id": id, "type": "skill_version_deleted"})
	})
}

// skillListPage is a list page of the cursor scheme, with the has_more the
// Skills endpoints add.
type skillListPage[T any] struct {
	Data     []T     `json:"data"`
	HasMore  bool    `json:"has_more"`
	NextPage *string `json:"next_page"`
}

// pageSkillList pages items newest first by id (newestByID), by limit
// (1-maxLimit, default 20) and page, as pageByCursor does, adding
// has_more. The error, if any, is the message for a 400.
func pageSkillList[T any](items []T, idOf func(T) string, q url.Values, maxLimit int) (skillListPage[T], error) {
	page, err := pageByCursor(items, newestByID(idOf), q, maxLimit)
	return skillListPage[T]{Data: page.Data, HasMore: page.NextPage != nil, NextPage: page.NextPage}, err
}
