package mmstest

// The coding CLI's managed settings (organization.md §19.6, beta
// ce-claude-code-managed-settings-2026-10-06) and the Slack integration's
// settings (§19.7, beta experimental-claude-tag-2026-10-21). A channel's
// setting it does not set is its Slack workspace's, else the
// organization's default (tagDefaults).

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// tagState is the two families' state, under orgStore.mu.
type tagState struct {
	msConfig, msDefault                    rec
	msGroups                               map[string]rec // rbac group → its settings record
	channels, workspaces, bundles, targets coll
	own                                    map[string]rec // channel or workspace record → the settings it sets
}

// tagDefaults are the organization's Slack settings.
var tagDefaults = rec{"enabled": false, "environment_id": nil, "model": nil, "instructions": nil, "guest_policy": "restrict", "reply_mode": "mention_only"}

func (o *orgStore) tagRoutes() []route {
	t := &o.beta.tag
	t.msConfig = rec{"type": "claude_code_managed_settings_configuration", "mode": rec{"type": "organization"}, "mode_updated_at": nil,
		"rbac_group_order": []string{}, "rbac_group_order_version": 0}
	t.msDefault = rec{"type": "claude_code_rbac_group_default_managed_settings", "settings": nil, "updated_at": nil}
	t.msGroups, t.own = map[string]rec{}, map[string]rec{}
	t.channels = coll{prefix: "slkch_", typ: "slack_channel", param: "slack_channel_id", what: "slack channel"}
	t.workspaces = coll{prefix: "slkws_", typ: "slack_workspace", param: "slack_workspace_id", what: "slack workspace"}
	t.bundles = coll{prefix: "bundle_", typ: "bundle", param: "bundle_id", what: "bundle"}
	t.targets = coll{prefix: "bndtgt_", typ: "bundle_target", param: "target_id", what: "bundle target"}
	ms := func(h http.HandlerFunc) http.HandlerFunc { return o.gated(wire.BetaManagedSettings, credAdminKey, h) }
	tg := func(h http.HandlerFunc) http.HandlerFunc { return o.gated(wire.BetaClaudeTag, credAdminKey, h) }
	const m, ct = "/v1/organizations/claude_code/managed_settings", "/v1/organizations/claude_tag"
	return []route{
		{pattern: "GET " + m + "/configuration", handle: ms(o.lockedJSON(func() any { return t.msConfig }))},
		{pattern: "POST " + m + "/configuration", handle: ms(o.updateMSConfig)},
		{pattern: "GET " + m + "/rbac_groups", handle: ms(o.listMSGroups)},
		{pattern: "GET " + m + "/rbac_groups/{rbac_group_id}", handle: ms(o.msGroup(http.MethodGet))},
		{pattern: "POST " + m + "/rbac_groups/{rbac_group_id}", handle: ms(o.msGroup(http.MethodPost))},
		{pattern: "DELETE " + m + "/rbac_groups/{rbac_group_id}", handle: ms(o.msGroup(http.MethodDelete))},
		{pattern: "GET " + m + "/rbac_group_default", handle: ms(o.lockedJSON(func() any { return t.msDefault }))},
		{pattern: "POST " + m + "/rbac_group_default", handle: ms(o.updateMSDefault)},
		{pattern: "POST " + ct + "/slack_channels", handle: tg(o.createChannel)},
		{pattern: "GET " + ct + "/slack_channels", handle: tg(o.listTag(&t.channels))},
		{pattern: "GET " + ct + "/slack_channels/{slack_channel_id}", handle: tg(o.tagRec(&t.channels, false))},
		{pattern: "POST " + ct + "/slack_channels/{slack_channel_id}", handle: tg(o.tagRec(&t.channels, true))},
		{pattern: "DELETE " + ct + "/slack_channels/{slack_channel_id}", handle: tg(o.deleteChannel)},
		{pattern: "GET " + ct + "/slack_workspaces", handle: tg(o.listTag(&t.workspaces))},
		{pattern: "GET " + ct + "/slack_workspaces/{slack_workspace_id}", handle: tg(o.tagRec(&t.workspaces, false))},
		{pattern: "POST " + ct + "/slack_workspaces/{slack_workspace_id}", handle: tg(o.tagRec(&t.workspaces, true))},
		{pattern: "GET " + ct + "/bundles", handle: tg(o.listRecs(&t.bundles, false, nil))},
		{pattern: "GET " + ct + "/bundles/{bundle_id}", handle: tg(o.getRec(&t.bundles))},
		{pattern: "POST " + ct + "/bundles/{bundle_id}", handle: tg(o.updateRec(&t.bundles, []string{"instructions"}, func(_, b rec) string {
			if v, ok := b["instructions"]; ok && v == "" {
				b["instructions"] = nil // "" clears, as null does
			}
			return ""
		}))},
		{pattern: "POST " + ct + "/bundles/{bundle_id}/targets", handle: tg(o.createTarget)},
		{pattern: "GET " + ct + "/bundles/{bundle_id}/targets", handle: tg(o.bundleTargets(""))},
		{pattern: "GET " + ct + "/bundles/{bundle_id}/targets/{target_id}", handle: tg(o.bundleTargets(http.MethodGet))},
		{pattern: "DELETE " + ct + "/bundles/{bundle_id}/targets/{target_id}", handle: tg(o.bundleTargets(http.MethodDelete))},
	}
}

// lockedJSON answers the value get returns, read under o.mu.
func (o *orgStore) lockedJSON(get func() any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		defer o.mu.Unlock()
		writeJSON(w, http.StatusOK, get())
	}
}

// isObject reports a JSON object (settings are one).
func isObject(v any) bool { _, ok := v.(rec); return ok }

// updateMSConfig serves POST …/configuration: mode and order together; a
// stale version is 409; the order must name every group with settings
// once.
func (o *orgStore) updateMSConfig(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"mode", "rbac_group_order", "rbac_group_order_version"})
	if !ok {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	t := &o.beta.tag
	cfg := copyRec(t.msConfig)
	if v, ok := b["rbac_group_order_version"].(json.Number); ok && v.String() != jsonText(cfg["rbac_group_order_version"]) {
		writeError(w, r, http.StatusConflict, "conflict_error", "rbac_group_order_version is stale: read the configuration again")
		return
	}
	if v, ok := b["mode"]; ok {
		md, _ := v.(rec)
		if msg := inSet(md, "type", "organization", "rbac_groups"); msg != "" || str(md, "type") == "" {
			bad(w, r, "mode.type: Input should be 'organization' or 'rbac_groups'")
			return
		}
		cfg["mode"], cfg["mode_updated_at"] = rec{"type": str(md, "type")}, o.stamp()
	}
	if v, ok := b["rbac_group_order"]; ok {
		raw, _ := v.([]any)
		order := make([]string, 0, len(raw))
		for _, g := range raw {
			s, _ := g.(string)
			order = append(order, s)
		}
		if !slices.Equal(slices.Sorted(slices.Values(order)), sortedKeys(t.msGroups)) {
			bad(w, r, "rbac_group_order: must name every group with settings exactly once")
			return
		}
		cfg["rbac_group_order"] = order
		cfg["rbac_group_order_version"] = cfg["rbac_group_order_version"].(int) + 1
	}
	t.msConfig = cfg
	writeJSON(w, http.StatusOK, cfg)
}

// jsonText is v as JSON text.
func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

// msGroup serves one group's settings: read, set (a new group joins the
// end of the order) or delete (it leaves the order).
func (o *orgStore) msGroup(method string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var b rec
		if method == http.MethodPost {
			var ok bool
			if b, ok = body(w, r, []string{"settings"}, "settings"); !ok {
				return
			}
			if !isObject(b["settings"]) {
				bad(w, r, "settings: must be a JSON object")
				return
			}
		}
		o.mu.Lock()
		defer o.mu.Unlock()
		t := &o.beta.tag
		id := r.PathValue("rbac_group_id")
		cur := t.msGroups[id]
		if cur == nil && method != http.MethodPost {
			writeCodedError(w, r, http.StatusNotFound, "rbac_group_managed_settings_not_found", "the group has no managed settings")
			return
		}
		switch method {
		case http.MethodGet:
			writeJSON(w, http.StatusOK, cur)
		case http.MethodDelete:
			delete(t.msGroups, id)
			cfg := copyRec(t.msConfig)
			cfg["rbac_group_order"] = slices.DeleteFunc(slices.Clone(cfg["rbac_group_order"].([]string)), func(g string) bool { return g == id })
			cfg["rbac_group_order_version"] = cfg["rbac_group_order_version"].(int) + 1
			t.msConfig = cfg
			writeJSON(w, http.StatusOK, rec{"type": "claude_code_rbac_group_managed_settings_deleted", "rbac_group_id": id})
		default:
			status := "missing"
			if lookup(o.groups.items, id) != nil {
				status = "active"
			}
			next := rec{"type": "claude_code_rbac_group_managed_settings", "rbac_group_id": id, "rbac_group_status": status,
				"settings": b["settings"], "created_at": o.stamp(), "updated_at": o.stamp()}
			if cur != nil {
				next["created_at"] = cur["created_at"]
			} else {
				cfg := copyRec(t.msConfig)
				cfg["rbac_group_order"] = append(slices.Clone(cfg["rbac_group_order"].([]string)), id)
				cfg["rbac_group_order_version"] = cfg["rbac_group_order_version"].(int) + 1
				t.msConfig = cfg
			}
			t.msGroups[id] = next
			writeJSON(w, http.StatusOK, next)
		}
	}
}

// listMSGroups serves the groups with settings in priority order, without
// their settings.
func (o *orgStore) listMSGroups(w http.ResponseWriter, r *http.Request) {
	t := &o.beta.tag
	idx := map[string]int{}
	var recs []rec
	withLock(&o.mu, func() {
		for i, id := range t.msConfig["rbac_group_order"].([]string) {
			x := copyRec(t.msGroups[id])
			delete(x, "settings")
			idx[id] = i
			recs = append(recs, x)
		}
	})
	page, err := pageByCursor(recs, orderByID(func(x rec) string { return seqKey(idx[str(x, "rbac_group_id")]) }, false), r.URL.Query(), maxPageLimit)
	writePage(w, r, page, err)
}

// updateMSDefault serves POST …/rbac_group_default: {settings}, null
// clears.
func (o *orgStore) updateMSDefault(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"settings"})
	if !ok {
		return
	}
	v, present := b["settings"]
	if !present || (v != nil && !isObject(v)) {
		bad(w, r, "settings: Field required (a JSON object, or null to clear)")
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.beta.tag.msDefault = rec{"type": "claude_code_rbac_group_default_managed_settings", "settings": v, "updated_at": o.stamp()}
	writeJSON(w, http.StatusOK, o.beta.tag.msDefault)
}

// AddSlackWorkspace connects a Slack workspace (its Slack team id) and
// returns its record's id.
func (g *Org) AddSlackWorkspace(slackWorkspaceID string) string {
	return locked(&g.o.mu, func() string {
		return recID(g.o.add(&g.o.beta.tag.workspaces, rec{"slack": rec{"slack_workspace_id": slackWorkspaceID}}, "created_at", "updated_at"))
	})
}

// AddBundle adds a bundle and returns its id.
func (g *Org) AddBundle(displayName, description string) string {
	return locked(&g.o.mu, func() string {
		return recID(g.o.add(&g.o.beta.tag.bundles, rec{"display_name": displayName, "description": nullable(description), "instructions": nil}, "created_at", "updated_at"))
	})
}

// checkTagSettings reports a settings object with unknown members or
// values.
func checkTagSettings(v any) string {
	s, ok := v.(rec)
	if !ok {
		return "settings: must be a JSON object"
	}
	for k := range s {
		if _, known := tagDefaults[k]; !known {
			return "settings." + k + ": Extra inputs are not permitted"
		}
	}
	if msg := inSet(s, "guest_policy", "allow", "restrict", "channel_only"); msg != "" {
		return "settings." + msg
	}
	if msg := inSet(s, "reply_mode", "automatic", "mention_only", "always_awake", "thread"); msg != "" {
		return "settings." + msg
	}
	return ""
}

// setOwn applies a partial settings change to a record's own settings
// (null clears: the value is inherited again); o.mu held.
func (o *orgStore) setOwn(id string, s rec) {
	own := copyRec(o.beta.tag.own[id])
	for k, v := range s {
		if v == nil {
			delete(own, k)
		} else {
			own[k] = v
		}
	}
	o.beta.tag.own[id] = own
}

// workspaceOf is the Slack workspace record of a Slack team id; o.mu held.
func (o *orgStore) workspaceOf(slackWorkspaceID string) rec {
	for _, x := range o.beta.tag.workspaces.items {
		if str(x["slack"].(rec), "slack_workspace_id") == slackWorkspaceID {
			return x
		}
	}
	return nil
}

// renderTag is a channel or workspace with its effective settings and
// their sources; o.mu held.
func (o *orgStore) renderTag(x rec) rec {
	y := copyRec(x)
	levels := []struct {
		name string
		own  rec
	}{{str(x, "type"), o.beta.tag.own[recID(x)]}}
	if str(x, "type") == "slack_channel" {
		if ws := o.workspaceOf(str(x["slack"].(rec), "slack_workspace_id")); ws != nil {
			levels = append(levels, struct {
				name string
				own  rec
			}{"slack_workspace", o.beta.tag.own[recID(ws)]})
		}
	}
	settings, sources := rec{}, rec{}
	for k, def := range tagDefaults {
		settings[k], sources[k] = def, "organization"
		for _, l := range levels {
			if v, ok := l.own[k]; ok {
				settings[k], sources[k] = v, l.name
				break
			}
		}
	}
	y["settings"], y["sources"] = settings, sources
	return y
}

// createChannel serves POST /slack_channels: idempotent on the Slack ids.
func (o *orgStore) createChannel(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"slack", "settings"}, "slack")
	if !ok {
		return
	}
	sl, _ := b["slack"].(rec)
	if str(sl, "slack_workspace_id") == "" || str(sl, "slack_channel_id") == "" {
		bad(w, r, "slack: slack_workspace_id and slack_channel_id are required")
		return
	}
	if v, ok := b["settings"]; ok && refused(w, r, checkTagSettings(v)) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.workspaceOf(str(sl, "slack_workspace_id")) == nil {
		bad(w, r, "slack.slack_workspace_id: the Slack workspace is not connected")
		return
	}
	for _, x := range o.beta.tag.channels.items {
		if s := x["slack"].(rec); str(s, "slack_workspace_id") == str(sl, "slack_workspace_id") && str(s, "slack_channel_id") == str(sl, "slack_channel_id") {
			writeJSON(w, http.StatusOK, o.renderTag(x))
			return
		}
	}
	x := o.add(&o.beta.tag.channels, rec{"slack": rec{"slack_workspace_id": sl["slack_workspace_id"], "slack_channel_id": sl["slack_channel_id"]}}, "created_at", "updated_at")
	if s, ok := b["settings"].(rec); ok {
		o.setOwn(recID(x), s)
	}
	writeJSON(w, http.StatusOK, o.renderTag(x))
}

// tagRec serves a channel's or workspace's record, or (update) a partial
// change of its settings.
func (o *orgStore) tagRec(c *coll, update bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var b rec
		if update {
			var ok bool
			if b, ok = body(w, r, []string{"settings"}, "settings"); !ok || refused(w, r, checkTagSettings(b["settings"])) {
				return
			}
		}
		o.atRec(w, r, c.find, func(x rec) {
			if update {
				o.setOwn(recID(x), b["settings"].(rec))
				x["updated_at"] = o.stamp()
			}
			writeJSON(w, http.StatusOK, o.renderTag(x))
		})
	}
}

// listTag serves the channel list (slack_workspace_id required;
// slack_channel_id, include_inherited) or the workspace list
// (slack_workspace_id).
func (o *orgStore) listTag(c *coll) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		channels := c.typ == "slack_channel"
		if channels && q.Get("slack_workspace_id") == "" {
			bad(w, r, "slack_workspace_id: Field required")
			return
		}
		recs := locked(&o.mu, func() []rec {
			var recs []rec
			for _, x := range c.items {
				sl := x["slack"].(rec)
				ws, ch := q.Get("slack_workspace_id"), q.Get("slack_channel_id")
				switch {
				case ws != "" && str(sl, "slack_workspace_id") != ws:
				case channels && ch != "" && str(sl, "slack_channel_id") != ch:
				case channels && len(o.beta.tag.own[recID(x)]) == 0 && q.Get("include_inherited") != "true":
				default:
					recs = append(recs, o.renderTag(x))
				}
			}
			return recs
		})
		listCursorScheme(w, r, recs, recID)
	}
}

// deleteChannel serves DELETE /slack_channels/{id}: refused while enabled.
func (o *orgStore) deleteChannel(w http.ResponseWriter, r *http.Request) {
	t := &o.beta.tag
	o.atRec(w, r, t.channels.find, func(x rec) {
		if o.renderTag(x)["settings"].(rec)["enabled"] == true {
			writeCodedError(w, r, http.StatusBadRequest, "slack_channel_enabled", "disable the channel before deleting it")
			return
		}
		t.channels.remove(x)
		delete(t.own, recID(x))
		writeDeleted(w, recID(x), "slack_channel_deleted")
	})
}

// createTarget serves POST /bundles/{id}/targets: {target: {type, id}}
// naming a channel or workspace record.
func (o *orgStore) createTarget(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"target"}, "target")
	if !ok {
		return
	}
	tg, _ := b["target"].(rec)
	t := &o.beta.tag
	in := map[string]*coll{"slack_channel": &t.channels, "slack_workspace": &t.workspaces}[str(tg, "type")]
	o.atRec(w, r, t.bundles.find, func(bundle rec) {
		switch {
		case in == nil:
			bad(w, r, "target.type: Input should be 'slack_channel' or 'slack_workspace'")
		case lookup(in.items, str(tg, "id")) == nil:
			bad(w, r, "target.id: no such "+in.what)
		default:
			writeJSON(w, http.StatusOK, o.add(&t.targets, rec{"bundle_id": recID(bundle), "target": rec{"type": str(tg, "type"), "id": str(tg, "id")}}, "created_at"))
		}
	})
}

// bundleTargets serves a bundle's targets: the list (""), one (GET) or
// its removal (DELETE).
func (o *orgStore) bundleTargets(method string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t := &o.beta.tag
		if method == "" {
			if recs, ok := o.gather(w, r, t.bundles.find, func(bundle rec) []rec { return childrenOf(t.targets.items, "bundle_id", recID(bundle)) }); ok {
				listCursorScheme(w, r, recs, recID)
			}
			return
		}
		o.atRec(w, r, t.bundles.find, func(bundle rec) {
			x := t.targets.find(w, r)
			switch {
			case x == nil:
			case x["bundle_id"] != recID(bundle):
				writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "bundle target not found")
			case method == http.MethodGet:
				writeJSON(w, http.StatusOK, x)
			default:
				t.targets.remove(x)
				writeDeleted(w, recID(x), "bundle_target_deleted")
			}
		})
	}
}
