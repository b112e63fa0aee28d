package mmstest

// Plugins and plugin marketplaces (organization.md §19.5), beta
// ce-plugins-2026-09-01. A plugin's manifest is the uploaded file named
// plugin.json (at the top or in any directory), a JSON object with name
// and optionally display_name, description and version; versions are kept
// whole and served back as a .zip.

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// pluginState is the plugins' state, under orgStore.mu.
type pluginState struct {
	plugins, versions, marketplaces coll
	content                         map[string][]byte         // version id → its .zip
	settings                        map[string]map[string]rec // plugin → target → setting
	shares                          map[string][]rec          // plugin → shares
}

func (o *orgStore) pluginRoutes() []route {
	p := &o.beta.plugins
	p.plugins = coll{prefix: "plugin_", typ: "plugin", param: "plugin_id", what: "plugin"}
	p.versions = coll{prefix: "pluginver_", typ: "plugin_version", param: "version", what: "plugin version"}
	p.marketplaces = coll{prefix: "mkt_", typ: "plugin_marketplace", param: "marketplace_id", what: "plugin marketplace"}
	p.content, p.settings, p.shares = map[string][]byte{}, map[string]map[string]rec{}, map[string][]rec{}
	g := func(h http.HandlerFunc) http.HandlerFunc { return o.gated(wire.BetaPlugins, credAdminKey, h) }
	const pl, mk = "/v1/organizations/plugins", "/v1/organizations/plugin_marketplaces"
	return []route{
		{pattern: "POST " + pl, handle: g(o.createPlugin), upload: true},
		{pattern: "GET " + pl, handle: g(o.listRecs(&p.plugins, false, pluginFilter))},
		{pattern: "GET " + pl + "/{plugin_id}", handle: g(o.getRec(&p.plugins))},
		{pattern: "POST " + pl + "/{plugin_id}", handle: g(o.pinPlugin)},
		{pattern: "DELETE " + pl + "/{plugin_id}", handle: g(o.deletePlugin)},
		{pattern: "POST " + pl + "/{plugin_id}/versions", handle: g(o.createPluginVersion), upload: true},
		{pattern: "GET " + pl + "/{plugin_id}/versions", handle: g(o.listPluginVersions)},
		{pattern: "GET " + pl + "/{plugin_id}/versions/{version}", handle: g(o.pluginVersion(false))},
		{pattern: "GET " + pl + "/{plugin_id}/versions/{version}/content", handle: g(o.pluginVersion(true))},
		{pattern: "GET " + pl + "/{plugin_id}/installation_settings", handle: g(o.listInstallSettings)},
		{pattern: "POST " + pl + "/{plugin_id}/installation_settings/{target}", handle: g(o.installSetting(true))},
		{pattern: "DELETE " + pl + "/{plugin_id}/installation_settings/{target}", handle: g(o.installSetting(false))},
		{pattern: "GET " + pl + "/{plugin_id}/shares", handle: g(o.listShares)},
		{pattern: "GET " + mk, handle: g(o.listRecs(&p.marketplaces, false, marketplaceFilter))},
		{pattern: "GET " + mk + "/{marketplace_id}", handle: g(o.getRec(&p.marketplaces))},
		{pattern: "POST " + mk + "/{marketplace_id}", handle: g(o.updateRec(&p.marketplaces, []string{"default_installation_preference"}, func(_, b rec) string {
			if str(b, "default_installation_preference") == "" {
				return "default_installation_preference: Field required"
			}
			return ""
		}))},
		{pattern: "POST " + mk + "/validate_archive", handle: g(o.validateArchive), upload: true},
		{pattern: "POST " + mk + "/validate_repository", handle: g(o.validateRepository)},
	}
}

// AddPluginMarketplace adds a marketplace owned by the organization whose
// source type is source ("manual", "github", …) and returns its id.
func (g *Org) AddPluginMarketplace(name, source string) string {
	return locked(&g.o.mu, func() string {
		return recID(g.o.add(&g.o.beta.plugins.marketplaces, rec{"name": name, "owner": rec{"type": "organization"},
			"source": rec{"type": source}, "sync_status": rec{"type": "idle"}, "default_installation_preference": "available",
			"last_sync_ended_at": nil, "last_sync_read_sha": nil}, "created_at"))
	})
}

// AddPluginShare shares a plugin with a target (a member or group id), as
// its owner would.
func (g *Org) AddPluginShare(pluginID, target string) {
	withLock(&g.o.mu, func() {
		g.o.beta.plugins.shares[pluginID] = append(g.o.beta.plugins.shares[pluginID],
			rec{"plugin_id": pluginID, "target": target, "target_type": targetType(target), "granted_at": g.o.stamp()})
	})
}

func pluginFilter(r *http.Request, x rec) bool {
	q := r.URL.Query()
	owner, _ := x["owner"].(rec)
	for k, v := range map[string]string{"marketplace_id": str(x, "marketplace_id"), "owner_type": str(owner, "type"), "owner_user_id": str(owner, "user_id")} {
		if f := q.Get(k); f != "" && f != v {
			return false
		}
	}
	created := str(x, "created_at")
	for op, keep := range map[string]func(c int) bool{"gt": func(c int) bool { return c > 0 }, "gte": func(c int) bool { return c >= 0 },
		"lt": func(c int) bool { return c < 0 }, "lte": func(c int) bool { return c <= 0 }} {
		if b := q.Get("created_at[" + op + "]"); b != "" && !keep(strings.Compare(created, b)) {
			return false
		}
	}
	return true
}

func marketplaceFilter(r *http.Request, x rec) bool {
	q := r.URL.Query()
	owner, _ := x["owner"].(rec)
	src, _ := x["source"].(rec)
	return (q.Get("owner_type") == "" || q.Get("owner_type") == str(owner, "type")) && (q.Get("source") == "" || q.Get("source") == str(src, "type"))
}

// pluginUpload is a version upload's form.
type pluginUpload struct {
	files                       map[string][]byte
	marketplaceID, releaseNotes string
	manifest                    struct{ Name, DisplayName, Description, Version string }
}

// readPluginForm reads a version upload: files[] parts, release_notes and
// (withMarketplace) marketplace_id; the manifest must be there with a
// valid name.
func readPluginForm(w http.ResponseWriter, r *http.Request, withMarketplace bool) *pluginUpload {
	fail := func(e *apiError) *pluginUpload { writeAPIError(w, r, e); return nil }
	mr, aerr := formReader(r)
	if aerr != nil {
		return fail(aerr)
	}
	u := &pluginUpload{files: map[string][]byte{}}
	var manifest []byte
	for {
		part, name, filename, isFile, aerr := nextFormPart(mr)
		if aerr != nil {
			return fail(aerr)
		}
		if part == nil {
			break
		}
		switch {
		case name == "files[]" && isFile:
			b, err := io.ReadAll(part)
			if err != nil {
				return fail(invalid("files: could not read %q: %v", filename, err))
			}
			if _, dup := u.files[filename]; dup {
				return fail(invalid("files: duplicate path %q", filename))
			}
			u.files[filename] = b
			if path.Base(filename) == "plugin.json" {
				manifest = b
			}
		case name == "release_notes" && !isFile:
			if u.releaseNotes, aerr = readTextField(name, part); aerr != nil {
				return fail(aerr)
			}
		case name == "marketplace_id" && !isFile && withMarketplace:
			if u.marketplaceID, aerr = readTextField(name, part); aerr != nil {
				return fail(aerr)
			}
		default:
			return fail(invalid("%s: Extra inputs are not permitted", name))
		}
	}
	var m struct {
		Name        string `json:"name"`
		DisplayName string `json:"display_name"`
		Description string `json:"description"`
		Version     string `json:"version"`
	}
	switch {
	case len(u.files) == 0:
		return fail(invalid("files: at least one file is required"))
	case manifest == nil:
		return fail(invalid("files: the plugin's manifest (plugin.json) is missing"))
	case json.Unmarshal(manifest, &m) != nil:
		return fail(invalid("plugin.json: not a JSON object"))
	case !isSlug(m.Name) || len(m.Name) > 64:
		return fail(invalid("plugin.json: name must be at most 64 lowercase letters, digits and hyphens, got %q", m.Name))
	}
	if m.DisplayName == "" {
		m.DisplayName = m.Name
	}
	u.manifest = struct{ Name, DisplayName, Description, Version string }{m.Name, m.DisplayName, m.Description, m.Version}
	return u
}

// zipOf packs files, in path order.
func zipOf(files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range sortedKeys(files) {
		f, _ := zw.Create(p)
		_, _ = f.Write(files[p])
	}
	_ = zw.Close()
	return buf.Bytes()
}

// nullable is s, or nil when empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// addVersion stores a version of plugin p from u and makes it the latest
// (and the served one unless a pin holds); o.mu held.
func (o *orgStore) addVersion(p rec, u *pluginUpload) rec {
	v := o.add(&o.beta.plugins.versions, rec{"plugin_id": recID(p), "display_name": u.manifest.DisplayName,
		"description": nullable(u.manifest.Description), "manifest_version": nullable(u.manifest.Version),
		"release_notes": nullable(u.releaseNotes), "components": []any{}, "content_scan": rec{"type": "completed"},
		"reach": rec{"type": "organization"}, "created_by": rec{"type": "admin_api_key"}}, "created_at")
	o.beta.plugins.content[recID(v)] = zipOf(u.files)
	p["latest_version_id"] = recID(v)
	if p["served_version_pinned"] != true {
		p["served_version_id"] = recID(v)
	}
	for _, k := range []string{"display_name", "description", "manifest_version"} {
		p[k] = v[k]
	}
	p["updated_at"] = o.stamp()
	return v
}

// createPlugin serves POST /plugins: a taken name is 409
// plugin_name_taken with details.plugin_id.
func (o *orgStore) createPlugin(w http.ResponseWriter, r *http.Request) {
	u := readPluginForm(w, r, true)
	if u == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range o.beta.plugins.plugins.items {
		if p["name"] == u.manifest.Name {
			writeJSON(w, http.StatusConflict, map[string]any{"type": "error", "request_id": r.Header.Get("request-id"),
				"error": map[string]any{"type": "conflict_error", "message": fmt.Sprintf("a plugin named %q exists", u.manifest.Name),
					"details": map[string]any{"error_code": "plugin_name_taken", "plugin_id": recID(p)}}})
			return
		}
	}
	if u.marketplaceID != "" && lookup(o.beta.plugins.marketplaces.items, u.marketplaceID) == nil {
		bad(w, r, "marketplace_id: no such marketplace")
		return
	}
	p := o.add(&o.beta.plugins.plugins, rec{"name": u.manifest.Name, "marketplace_id": nullable(u.marketplaceID),
		"owner": rec{"type": "organization"}, "created_by": rec{"type": "admin_api_key"}, "components": []any{},
		"content_scan": rec{"type": "completed"}, "reach": rec{"type": "organization"}, "served_version_pinned": false,
		"organization_installation_preference": nil, "organization_installation_preference_inherited": true}, "created_at", "updated_at")
	o.addVersion(p, u)
	writeJSON(w, http.StatusOK, p)
}

func (o *orgStore) createPluginVersion(w http.ResponseWriter, r *http.Request) {
	u := readPluginForm(w, r, false)
	if u == nil {
		return
	}
	o.atRec(w, r, o.beta.plugins.plugins.find, func(p rec) {
		if u.manifest.Name != p["name"] {
			bad(w, r, fmt.Sprintf("plugin.json: name %q is not the plugin's name %q", u.manifest.Name, p["name"]))
			return
		}
		writeJSON(w, http.StatusOK, o.addVersion(p, u))
	})
}

// versionOf finds the path's version of the path's plugin; o.mu held.
func (o *orgStore) versionOf(w http.ResponseWriter, r *http.Request) rec {
	p := o.beta.plugins.plugins.find(w, r)
	if p == nil {
		return nil
	}
	v := o.beta.plugins.versions.find(w, r)
	if v != nil && v["plugin_id"] != recID(p) {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "plugin version not found")
		return nil
	}
	return v
}

// pluginVersion serves a version's record, or (content) its .zip.
func (o *orgStore) pluginVersion(content bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		o.atRec(w, r, o.versionOf, func(v rec) {
			if !content {
				writeJSON(w, http.StatusOK, v)
				return
			}
			b := o.beta.plugins.content[recID(v)]
			w.Header().Set(wire.HeaderContentType, "application/zip")
			w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", recID(v)+".zip"))
			w.Header().Set("Content-Length", fmt.Sprint(len(b)))
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(b)
		})
	}
}

func (o *orgStore) listPluginVersions(w http.ResponseWriter, r *http.Request) {
	ps := &o.beta.plugins
	if recs, ok := o.gather(w, r, ps.plugins.find, func(p rec) []rec { return childrenOf(ps.versions.items, "plugin_id", recID(p)) }); ok {
		listCursorScheme(w, r, recs, recID)
	}
}

// pinPlugin serves POST /plugins/{id}: {served_version_id}, one of the
// plugin's versions; the pin holds.
func (o *orgStore) pinPlugin(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"served_version_id"}, "served_version_id")
	if !ok {
		return
	}
	o.atRec(w, r, o.beta.plugins.plugins.find, func(p rec) {
		if v := lookup(o.beta.plugins.versions.items, b["served_version_id"]); v == nil || v["plugin_id"] != recID(p) {
			bad(w, r, "served_version_id: not a version of this plugin")
			return
		}
		p["served_version_id"], p["served_version_pinned"], p["updated_at"] = b["served_version_id"], true, o.stamp()
		writeJSON(w, http.StatusOK, p)
	})
}

// deletePlugin serves DELETE /plugins/{id}: every version goes; plugins
// of synced marketplaces cannot be deleted.
func (o *orgStore) deletePlugin(w http.ResponseWriter, r *http.Request) {
	ps := &o.beta.plugins
	o.atRec(w, r, ps.plugins.find, func(p rec) {
		m := lookup(ps.marketplaces.items, str(p, "marketplace_id"))
		if src, _ := m["source"].(rec); m != nil && str(src, "type") != "manual" {
			bad(w, r, "only plugins of manual marketplaces can be deleted")
			return
		}
		id := recID(p)
		ps.plugins.remove(p)
		ps.versions.items = slices.DeleteFunc(ps.versions.items, func(v rec) bool { return v["plugin_id"] == id })
		delete(ps.settings, id)
		writeDeleted(w, id, "plugin_deleted")
	})
}

// targetType is the kind of an installation or share target.
func targetType(target string) string {
	switch {
	case target == "organization":
		return "organization"
	case strings.HasPrefix(target, "rbac_group_"):
		return "rbac_group"
	default:
		return "user"
	}
}

// targetPage answers a cursor page of recs filtered by target_type.
func targetPage(w http.ResponseWriter, r *http.Request, recs []rec) {
	tt := r.URL.Query().Get("target_type")
	recs = slices.DeleteFunc(recs, func(x rec) bool { return tt != "" && x["target_type"] != tt })
	listCursorScheme(w, r, recs, func(x rec) string { return str(x, "target") })
}

func (o *orgStore) listInstallSettings(w http.ResponseWriter, r *http.Request) {
	recs, ok := o.gather(w, r, o.beta.plugins.plugins.find, func(p rec) []rec {
		var recs []rec
		for _, s := range o.beta.plugins.settings[recID(p)] {
			recs = append(recs, copyRec(s))
		}
		return recs
	})
	if ok {
		targetPage(w, r, recs)
	}
}

// installSetting sets (organization-owned plugins only) or removes a
// target's installation preference.
func (o *orgStore) installSetting(set bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var b rec
		if set {
			var ok bool
			if b, ok = body(w, r, []string{"installation_preference"}, "installation_preference"); !ok {
				return
			}
		}
		o.atRec(w, r, o.beta.plugins.plugins.find, func(p rec) { o.setInstallSetting(w, r, p, set, b) })
	}
}

// setInstallSetting sets (with b) or removes the path target's setting
// of plugin p; o.mu held.
func (o *orgStore) setInstallSetting(w http.ResponseWriter, r *http.Request, p rec, set bool, b rec) {
	id, target := recID(p), r.PathValue("target")
	cur := o.beta.plugins.settings[id][target]
	switch {
	case !set && cur == nil:
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "installation setting not found")
	case !set:
		delete(o.beta.plugins.settings[id], target)
		writeJSON(w, http.StatusOK, rec{"type": "plugin_installation_setting_deleted", "plugin_id": id, "target": target})
	case str(p["owner"].(rec), "type") != "organization":
		bad(w, r, "installation settings apply to organization-owned plugins only")
	default:
		if cur == nil {
			cur = rec{"plugin_id": id, "target": target, "target_type": targetType(target), "created_at": o.stamp()}
			if o.beta.plugins.settings[id] == nil {
				o.beta.plugins.settings[id] = map[string]rec{}
			}
		}
		cur = copyRec(cur)
		cur["installation_preference"], cur["updated_at"] = b["installation_preference"], o.stamp()
		o.beta.plugins.settings[id][target] = cur
		writeJSON(w, http.StatusOK, cur)
	}
}

func (o *orgStore) listShares(w http.ResponseWriter, r *http.Request) {
	if recs, ok := o.gather(w, r, o.beta.plugins.plugins.find, func(p rec) []rec { return slices.Clone(o.beta.plugins.shares[recID(p)]) }); ok {
		targetPage(w, r, recs)
	}
}

// report is a validation report; problems are reported, never refused.
func report(valid bool, ref, sha any, plugins int, manifestErr, code any) rec {
	return rec{"type": "plugin_marketplace_validation_report", "valid": valid, "ref": ref, "commit_sha": sha, "total_plugin_count": plugins,
		"manifest_error": manifestErr, "manifest_error_code": code, "plugin_errors": []any{}, "plugin_warnings": []any{}}
}

// validateArchive serves POST …/validate_archive: a .zip holding a
// marketplace.json is valid; its plugins are its plugin.json files.
func (o *orgStore) validateArchive(w http.ResponseWriter, r *http.Request) {
	mr, aerr := formReader(r)
	if aerr != nil {
		writeAPIError(w, r, aerr)
		return
	}
	var archive []byte
	for {
		part, name, _, isFile, aerr := nextFormPart(mr)
		if aerr != nil {
			writeAPIError(w, r, aerr)
			return
		}
		if part == nil {
			break
		}
		if name != "archive" || !isFile || archive != nil {
			bad(w, r, name+": expected one archive file part")
			return
		}
		archive, _ = io.ReadAll(part)
	}
	if archive == nil {
		bad(w, r, "archive: Field required")
		return
	}
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		writeJSON(w, http.StatusOK, report(false, nil, nil, 0, "the archive is not a .zip file", "invalid_archive"))
		return
	}
	hasManifest, plugins := false, 0
	for _, f := range zr.File {
		switch path.Base(f.Name) {
		case "marketplace.json":
			hasManifest = true
		case "plugin.json":
			plugins++
		}
	}
	if !hasManifest {
		writeJSON(w, http.StatusOK, report(false, nil, nil, plugins, "marketplace.json is missing", "manifest_missing"))
		return
	}
	writeJSON(w, http.StatusOK, report(true, nil, nil, plugins, nil, nil))
}

// validateRepository serves POST …/validate_repository: the fake reads no
// repository; an https URL is reported valid at a made-up commit.
func (o *orgStore) validateRepository(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"repository_url", "ref"}, "repository_url")
	if !ok {
		return
	}
	if u, err := url.Parse(str(b, "repository_url")); err != nil || u.Scheme != "https" || u.Host == "" {
		writeJSON(w, http.StatusOK, report(false, nil, nil, 0, "repository_url is not an https URL", "invalid_repository_url"))
		return
	}
	ref := str(b, "ref")
	if ref == "" {
		ref = "main"
	}
	sum := sha1.Sum([]byte(str(b, "repository_url") + "@" + ref))
	writeJSON(w, http.StatusOK, report(true, ref, hex.EncodeToString(sum[:]), 0, nil, nil))
}
