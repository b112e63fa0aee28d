package mmstest

// Compliance review (beta; deployments-dreams-compliance.md §4): the
// cases the vendor sends the organization, their items (the flagged
// messages) and the vendor's notices, under /v1/compliance/review/. They
// take an admin key (the service also checks its scopes, which the fake
// does not model) and no beta header. Tests seed them with
// Org.AddReviewCase, Org.AddReviewNotice and Org.EndReviewCase.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// reviewPathPrefix is the path compliance review is under; an admin key
// authenticates it as it does the Organization API.
const reviewPathPrefix = "/v1/compliance/review/"

// reviewState is compliance review's state, under orgStore.mu.
type reviewState struct {
	cases     []rec
	items     map[string]rec // item id → item
	notices   []rec
	responses map[string]string // case id → the first response, sorted, as JSON
	byEnd     map[string]bool
}

// ReviewItem seeds one flagged message of a case (Org.AddReviewCase).
type ReviewItem struct {
	// UserProfileID is the profile the message was recorded with; "" for
	// none. Reading the item then needs the vendor-user-profile-id header
	// with it (and without one, no header).
	UserProfileID string
	// Model is the model it was sent to; "" for null.
	Model string
	// Request is the POST /v1/messages body; nil gives a one-turn request.
	Request map[string]any
	// Response is the Message returned; nil for none stored.
	Response map[string]any
	// Unavailable, when set ("not_captured", "stored_copy_unavailable"),
	// makes the content null with this reason.
	Unavailable string
}

// AddReviewCase seeds an open case sent now about categories (none gives
// ["other"]) with one item per ReviewItem (none gives one item), and
// returns the case's id and its items' ids.
func (g *Org) AddReviewCase(categories []string, items ...ReviewItem) (caseID string, itemIDs []string) {
	if len(categories) == 0 {
		categories = []string{"other"}
	}
	if len(items) == 0 {
		items = []ReviewItem{{}}
	}
	o := g.o
	caseID = o.s.newID("rvc_")
	o.mu.Lock()
	defer o.mu.Unlock()
	now, org := o.stamp(), o.s.cfg.organizationID
	var transcripts []any
	for _, it := range items {
		id := o.s.newID("msg_")
		itemIDs = append(itemIDs, id)
		req := it.Request
		if req == nil {
			req = map[string]any{"model": "claude-test", "max_tokens": 16, "messages": []any{rec{"role": "user", "content": "hello"}}}
		}
		var content, reason any
		if it.Unavailable != "" {
			reason = rec{"type": it.Unavailable}
		} else {
			content = rec{"type": "create_message", "request": req, "response": nilIfEmpty(it.Response)}
		}
		o.review.items[id] = rec{"id": id, "type": "compliance_review_item", "organization_id": org, "workspace_id": nil,
			"user_profile_id": strOrNil(it.UserProfileID), "actor": rec{"type": "api_actor", "api_key_id": "apikey_fake"},
			"created_at": now, "content_expires_at": o.s.now().UTC().Add(30 * 24 * time.Hour).Format(time.RFC3339),
			"read_reason": rec{"type": "safeguards_review"},
			"details":     rec{"type": "message", "model": strOrNil(it.Model), "content": content, "content_unavailable_reason": reason}}
		transcripts = append(transcripts, rec{"item_id": id, "user_profile_id": strOrNil(it.UserProfileID)})
	}
	cats := make([]any, len(categories))
	for i, c := range categories {
		cats[i] = c
	}
	o.review.cases = append(o.review.cases, rec{"id": caseID, "type": "compliance_review_case", "organization_id": org,
		"workspace_id": nil, "policy_categories": cats, "enforcement_action": nil, "status": rec{"type": "open"},
		"transcripts": transcripts, "created_at": now, "updated_at": now})
	return caseID, itemIDs
}

// EndReviewCase closes an open case without a response, with reason
// "window_ended" (the time to respond ran out), or makes the end customer
// its reviewer when byEndCustomer (a response is then a 403). It reports
// whether the case exists.
func (g *Org) EndReviewCase(caseID string, byEndCustomer bool) bool {
	o := g.o
	o.mu.Lock()
	defer o.mu.Unlock()
	c := o.reviewCase(caseID)
	if c == nil {
		return false
	}
	if byEndCustomer {
		o.review.byEnd[caseID] = true
		return true
	}
	if str(c["status"].(rec), "type") == "open" {
		c["status"], c["updated_at"] = rec{"type": "closed", "reason": rec{"type": "window_ended"}}, o.stamp()
	}
	return true
}

// AddReviewNotice seeds a notice sent now of kind ("response_requested",
// "warning", "question") about caseIDs (none: the whole organization),
// and returns its id. The cases it names are updated now.
func (g *Org) AddReviewNotice(kind, message string, caseIDs ...string) string {
	o := g.o
	id := o.s.newID("rvn_")
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.stamp()
	ids := make([]any, len(caseIDs))
	for i, c := range caseIDs {
		ids[i] = c
		if x := o.reviewCase(c); x != nil {
			x["updated_at"] = now
		}
	}
	o.review.notices = append(o.review.notices, rec{"id": id, "type": "compliance_review_notice", "organization_id": o.s.cfg.organizationID,
		"case_ids": ids, "kind": rec{"type": kind}, "message": message, "respond_by": nil, "created_at": now})
	return id
}

func strOrNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nilIfEmpty(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

func (o *orgStore) reviewCase(id string) rec { return lookup(o.review.cases, id) }

// complianceRoutes sets up compliance review's state and returns its
// routes (no beta gate: the service needs none).
func (o *orgStore) complianceRoutes() []route {
	o.review = reviewState{items: map[string]rec{}, responses: map[string]string{}, byEnd: map[string]bool{}}
	const p = "/v1/compliance/review"
	a := credAdminKey
	return []route{
		{pattern: "GET " + p + "/cases", handle: o.with(a, o.listReviewCases)},
		{pattern: "GET " + p + "/cases/{case_id}", handle: o.with(a, o.getReviewCase)},
		{pattern: "POST " + p + "/cases/{case_id}/respond", handle: o.with(a, o.respondReviewCase)},
		{pattern: "GET " + p + "/notices", handle: o.with(a, o.listReviewNotices)},
		{pattern: "GET " + p + "/items/{item_id}", handle: o.with(a, o.getReviewItem)},
	}
}

func (o *orgStore) getReviewCase(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c := o.reviewCase(r.PathValue("case_id")); c != nil {
		writeJSON(w, http.StatusOK, c)
		return
	}
	writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "compliance review case not found")
}

// getReviewItem answers the item when the vendor-user-profile-id header
// names its profile (and is absent for an item without one); otherwise
// the same 404 as a missing item.
func (o *orgStore) getReviewItem(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	x := o.review.items[r.PathValue("item_id")]
	if x == nil || r.Header.Get(wire.HeaderUserProfileID) != str(x, "user_profile_id") {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "compliance review item not found")
		return
	}
	writeJSON(w, http.StatusOK, x)
}

// timeBounds reads field[gt|gte|lt|lte] of q as a keep function over a
// record's field; the error is the message for a 400.
func timeBounds(q url.Values, field string) (func(rec) bool, error) {
	type bound struct {
		op string
		t  time.Time
	}
	var bs []bound
	for _, op := range []string{"gt", "gte", "lt", "lte"} {
		v := q.Get(field + "[" + op + "]")
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return nil, fmt.Errorf("%s[%s]: Input should be a valid datetime, got %q", field, op, v)
		}
		bs = append(bs, bound{op, t})
	}
	return func(x rec) bool {
		t, _ := time.Parse(time.RFC3339Nano, str(x, field))
		for _, b := range bs {
			c := t.Compare(b.t)
			if (b.op == "gt" && c <= 0) || (b.op == "gte" && c < 0) || (b.op == "lt" && c >= 0) || (b.op == "lte" && c > 0) {
				return false
			}
		}
		return true
	}, nil
}

// reviewPage answers a cursor page of recs sorted by sortField then id
// (desc unless order=asc). Its tokens carry the request's filters and
// order, so a token used with others is a 400, as the service's are.
func reviewPage(w http.ResponseWriter, r *http.Request, recs []rec, sortField string) {
	q := r.URL.Query()
	filters := url.Values{}
	for k, v := range q {
		if k != "page" && k != "limit" {
			filters[k] = v
		}
	}
	scope := filters.Encode()
	order := listOrder[rec]{key: func(x rec) position { return position{scope, str(x, sortField), recID(x)} }, desc: q.Get("order") != "asc"}
	if t := q.Get("page"); t != "" {
		if _, tok, err := pageQuery(q, 100); err == nil && tok != nil && len(tok.After) > 0 && tok.After[0] != scope {
			bad(w, r, "page: the page token was issued for other filters or another order")
			return
		}
	}
	page, err := pageByCursor(recs, order, q, 100)
	writePage(w, r, page, err)
}

func (o *orgStore) listReviewCases(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !queryIn(w, r, "status", "open", "closed") || !queryIn(w, r, "order", "asc", "desc") || !queryIn(w, r, "order_by", "created_at", "updated_at") {
		return
	}
	if r.Header.Get(wire.HeaderUserProfileID) != "" && q.Get("user_profile_id") == "" {
		bad(w, r, "the vendor-user-profile-id header needs the user_profile_id parameter")
		return
	}
	created, err := timeBounds(q, "created_at")
	if err != nil {
		bad(w, r, err.Error())
		return
	}
	updated, err := timeBounds(q, "updated_at")
	if err != nil {
		bad(w, r, err.Error())
		return
	}
	orderBy := q.Get("order_by")
	if orderBy == "" {
		orderBy = "created_at"
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	var keep []rec
	for _, c := range o.review.cases {
		if s := q.Get("status"); s != "" && str(c["status"].(rec), "type") != s {
			continue
		}
		if p := q.Get("user_profile_id"); p != "" && !slices.ContainsFunc(c["transcripts"].([]any), func(t any) bool { return str(t.(rec), "user_profile_id") == p }) {
			continue
		}
		if created(c) && updated(c) {
			keep = append(keep, copyRec(c))
		}
	}
	reviewPage(w, r, keep, orderBy)
}

// listReviewNotices lists the notices whose every case exists (the key
// can read them all), filtered by case_id and created_at.
func (o *orgStore) listReviewNotices(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !queryIn(w, r, "order", "asc", "desc") {
		return
	}
	created, err := timeBounds(q, "created_at")
	if err != nil {
		bad(w, r, err.Error())
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	var keep []rec
	for _, n := range o.review.notices {
		ids := n["case_ids"].([]any)
		if slices.ContainsFunc(ids, func(id any) bool { return o.reviewCase(id.(string)) == nil }) {
			continue
		}
		if c := q.Get("case_id"); c != "" && !slices.Contains(ids, any(c)) {
			continue
		}
		if created(n) {
			keep = append(keep, copyRec(n))
		}
	}
	reviewPage(w, r, keep, "created_at")
}

// violatedCategories are the categories a response may name.
var violatedCategories = []string{"cyber", "bio", "chem", "radnuc", "cgw", "mgw", "io", "fraud", "violent_extremism", "surveillance",
	"human_exploitation", "self_harm", "adult_content", "reasoning_extraction", "frontier_llm", "compromised_key", "other"}

// reviewResponse is a respond body in a comparable form: its lists
// sorted, so the same response in another order is equal.
type reviewResponse struct {
	Determination    string          `json:"determination"`
	PolicyCategories []string        `json:"policy_categories,omitempty"`
	Verdicts         []reviewVerdict `json:"verdicts,omitempty"`
}

// reviewVerdict is one verdict of a respond body.
type reviewVerdict struct {
	ItemID         string `json:"item_id"`
	Determination  string `json:"determination"`
	PolicyCategory string `json:"policy_category,omitempty"`
}

// check is the message of the first rule the response breaks, "" for none.
func (b *reviewResponse) check() string {
	dets := []string{"violation", "no_violation"}
	if !slices.Contains(dets, b.Determination) {
		return "determination: Input should be 'violation' or 'no_violation'"
	}
	n := len(b.PolicyCategories)
	switch {
	case b.Determination == "no_violation" && n > 0:
		return "policy_categories: must be empty when determination is no_violation"
	case b.Determination == "violation" && (n < 1 || n > 4):
		return "policy_categories: name 1 to 4 categories when determination is violation"
	}
	for i, c := range b.PolicyCategories {
		if !slices.Contains(violatedCategories, c) {
			return fmt.Sprintf("policy_categories[%d]: %q is not a violated category", i, c)
		}
		if slices.Contains(b.PolicyCategories[:i], c) {
			return fmt.Sprintf("policy_categories[%d]: %q is repeated", i, c)
		}
	}
	for i, v := range b.Verdicts {
		switch {
		case v.ItemID == "":
			return fmt.Sprintf("verdicts[%d].item_id: Field required", i)
		case slices.ContainsFunc(b.Verdicts[:i], func(o reviewVerdict) bool { return o.ItemID == v.ItemID }):
			return fmt.Sprintf("verdicts[%d].item_id: %q is repeated", i, v.ItemID)
		case !slices.Contains(dets, v.Determination):
			return fmt.Sprintf("verdicts[%d].determination: Input should be 'violation' or 'no_violation'", i)
		case v.Determination == "no_violation" && v.PolicyCategory != "":
			return fmt.Sprintf("verdicts[%d].policy_category: must be omitted when determination is no_violation", i)
		case v.PolicyCategory != "" && !slices.Contains(violatedCategories, v.PolicyCategory):
			return fmt.Sprintf("verdicts[%d].policy_category: %q is not a violated category", i, v.PolicyCategory)
		}
	}
	slices.Sort(b.PolicyCategories)
	slices.SortFunc(b.Verdicts, func(x, y reviewVerdict) int { return strings.Compare(x.ItemID, y.ItemID) })
	return ""
}

// respondReviewCase records the first response, closing the case; the
// same response again (lists in any order) answers the case unchanged; a
// different one, or a case closed without a response, is a 400
// case_closed; a case the end customer reviews is a 403.
func (o *orgStore) respondReviewCase(w http.ResponseWriter, r *http.Request) {
	var b reviewResponse
	if badBody(w, r, &b) {
		return
	}
	if msg := b.check(); msg != "" {
		bad(w, r, msg)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	id := r.PathValue("case_id")
	c := o.reviewCase(id)
	if c == nil {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "compliance review case not found")
		return
	}
	if o.review.byEnd[id] {
		writeCodedError(w, r, http.StatusForbidden, "case_reviewed_by_end_customer", "the organization's end customer reviews this case")
		return
	}
	got, _ := json.Marshal(b)
	if str(c["status"].(rec), "type") != "open" {
		if prev, ok := o.review.responses[id]; ok && prev == string(got) {
			writeJSON(w, http.StatusOK, c)
			return
		}
		writeCodedError(w, r, http.StatusBadRequest, "case_closed", "the case is closed: only its first response counts")
		return
	}
	o.review.responses[id] = string(got)
	c["status"], c["updated_at"] = rec{"type": "closed", "reason": rec{"type": "responded"}}, o.stamp()
	writeJSON(w, http.StatusOK, c)
}
