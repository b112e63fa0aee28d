package mmstest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The User profiles endpoints under a user-profiles beta (the undated seed
// value or a dated user-profiles-* one); a request with none is a GA
// request (user_profiles_ga.go), except on the beta-only enrollment URL,
// whose rule chain requires the beta.
//
//   - POST /v1/user_profiles creates a profile ("uprof_…" ids); every
//     member is optional: external_id and name (strings of 1 to 255
//     characters, or null; "" is refused), metadata (at most 16 pairs,
//     keys 1–64, values 1–512 characters), relationship (external |
//     resold | internal), access_type (application | passthrough),
//     external_user_onboarded_at (RFC 3339) and external_user_details
//     (members account_status, entity_type, country: two uppercase
//     letters, email_hash, name_hash, reference_id: 1–255 characters,
//     onboarded_at; none null). Bodies are checked strictly: an unknown
//     member is a 400 naming it.
//   - Which members a body may carry depends on the dated beta sent
//     (§2.1): relationship only under user-profiles-2026-03-24;
//     access_type under -08-18 and -09-04; external_user_details under
//     -09-04 only; external_id under every beta but -09-04. A member not
//     allowed is a 400 invalid_request_error naming it and the beta. The
//     undated seed value "user-profiles" accepts every member (it names
//     no version); with several user-profiles values a member passes when
//     one of them allows it. external_user_onboarded_at, name and metadata
//     pass under every beta (the spec ties them to none).
//   - POST /v1/user_profiles/{user_profile_id} updates: external_id,
//     name, relationship and access_type replace, null clears; metadata
//     merges and "" deletes a key (null values are refused);
//     external_user_details members sent replace the stored ones, null is
//     refused (no clearing).
//   - GET /v1/user_profiles/{user_profile_id}; unknown ids are 404.
//   - GET /v1/user_profiles: order asc | desc (default desc), order_by
//     created_at (default) | name (profiles without a name come last in
//     either order; equal names keep the creation order of the list's
//     direction), cursor scheme, limit 1–100 (default 20). Page tokens
//     are offsets into the sorted list.
//   - POST /v1/user_profiles/{user_profile_id}/enrollment_url (no body)
//     answers {type: "enrollment_url", url, expires_at}: the url is on the
//     host enroll.mmstest.invalid, never the fake's own address, and
//     expires_at is the fake's clock plus 24 hours.
//
// Records answer every member stored whatever the beta: id, type,
// metadata, trust_grants (always {}: no request sets a grant), the
// timestamps, and external_id, name and external_user_onboarded_at (null
// until set); relationship, access_type and external_user_details only
// once set. external_user_details, once set, has all its members, null
// until set.

// EnrollmentHost is the host of the enrollment URLs the fake mints.
const EnrollmentHost = "enroll.mmstest.invalid"

// enrollmentTTL is how long a minted enrollment URL lasts.
const enrollmentTTL = 24 * time.Hour

// userProfileStore holds a server's user profiles (Server.userProfiles).
type userProfileStore struct {
	srv      *Server
	mu       sync.Mutex
	profiles []*userProfileWire // in creation order
}

// userProfileWire is the UserProfile record.
type userProfileWire struct {
	ID                      string                    `json:"id"`
	Type                    string                    `json:"type"`
	Metadata                map[string]string         `json:"metadata"`
	TrustGrants             map[string]trustGrantWire `json:"trust_grants"`
	CreatedAt               string                    `json:"created_at"`
	UpdatedAt               string                    `json:"updated_at"`
	ExternalID              *string                   `json:"external_id"`
	Name                    *string                   `json:"name"`
	Relationship            *string                   `json:"relationship,omitempty"`
	AccessType              *string                   `json:"access_type,omitempty"`
	ExternalUserOnboardedAt *string                   `json:"external_user_onboarded_at"`
	ExternalUserDetails     *externalUserDetailsWire  `json:"external_user_details,omitempty"`

	// What the vendor sets, shown in GA records only (user_profiles_ga.go).
	programs              json.RawMessage         // nil: {"cyber":null,"efs":null}
	actions               []enforcementActionWire // open enforcement actions
	verificationSubmitted bool                    // the end user submitted the identity check
	dataControls          *dataControls           // nil until read or set (user_profiles_google.go)
}

// trustGrantWire is one trust grant.
type trustGrantWire struct {
	Status string `json:"status"`
}

// externalUserDetailsWire is the external_user_details object: every
// member present, null until set.
type externalUserDetailsWire struct {
	AccountStatus *string `json:"account_status"`
	EntityType    *string `json:"entity_type"`
	Country       *string `json:"country"`
	EmailHash     *string `json:"email_hash"`
	NameHash      *string `json:"name_hash"`
	ReferenceID   *string `json:"reference_id"`
	OnboardedAt   *string `json:"onboarded_at"`
}

// enrollmentURLWire answers the enrollment_url endpoint.
type enrollmentURLWire struct {
	Type      string `json:"type"`
	URL       string `json:"url"`
	ExpiresAt string `json:"expires_at"`
}

// userProfileBody is a create or update body, members kept raw so that
// absent (nil), null and values differ.
type userProfileBody struct {
	ExternalID              json.RawMessage `json:"external_id"`
	Name                    json.RawMessage `json:"name"`
	Metadata                json.RawMessage `json:"metadata"`
	Relationship            json.RawMessage `json:"relationship"`
	AccessType              json.RawMessage `json:"access_type"`
	ExternalUserOnboardedAt json.RawMessage `json:"external_user_onboarded_at"`
	ExternalUserDetails     json.RawMessage `json:"external_user_details"`
}

// externalUserDetailsBody is the external_user_details member of a body.
type externalUserDetailsBody struct {
	AccountStatus json.RawMessage `json:"account_status"`
	EntityType    json.RawMessage `json:"entity_type"`
	Country       json.RawMessage `json:"country"`
	EmailHash     json.RawMessage `json:"email_hash"`
	NameHash      json.RawMessage `json:"name_hash"`
	ReferenceID   json.RawMessage `json:"reference_id"`
	OnboardedAt   json.RawMessage `json:"onboarded_at"`
}

// userProfileFieldBetas lists, per gated body member, the dated betas
// (the part after "user-profiles-") that accept it.
var userProfileFieldBetas = []struct {
	field string
	betas []string
}{
	{"external_id", []string{"2026-03-24", "2026-08-18"}},
	{"relationship", []string{"2026-03-24"}},
	{"access_type", []string{"2026-08-18", "2026-09-04"}},
	{"external_user_details", []string{"2026-09-04"}},
}

// checkProfileBetas refuses a member the request's user-profiles betas do
// not accept. The seed value accepts every member.
func checkProfileBetas(r *http.Request, b *userProfileBody) error {
	if profileGA(r) {
		return checkGAProfileBody(b)
	}
	var dated []string
	for _, n := range betaNames(r.Header) {
		if n == wire.BetaUserProfiles {
			return nil
		}
		if d, ok := strings.CutPrefix(n, wire.BetaUserProfiles+"-"); ok {
			dated = append(dated, d)
		}
	}
	sent := map[string]bool{"external_id": b.ExternalID != nil, "relationship": b.Relationship != nil,
		"access_type": b.AccessType != nil, "external_user_details": b.ExternalUserDetails != nil}
	for _, f := range userProfileFieldBetas {
		if sent[f.field] && !slices.ContainsFunc(dated, func(d string) bool { return slices.Contains(f.betas, d) }) {
			return fmt.Errorf("%s: not accepted under vendor-beta %s-%s (accepted under %s-%s)", f.field,
				wire.BetaUserProfiles, strings.Join(dated, ", "+wire.BetaUserProfiles+"-"),
				wire.BetaUserProfiles, strings.Join(f.betas, ", "+wire.BetaUserProfiles+"-"))
		}
	}
	return nil
}

// profileEnum decodes an enum member: one of values, or null (nil) when
// nullOK.
func profileEnum(field string, raw json.RawMessage, nullOK bool, values ...string) (*string, error) {
	if isNullJSON(raw) {
		if !nullOK {
			return nil, fmt.Errorf("%s: cannot be null", field)
		}
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || !slices.Contains(values, s) {
		return nil, fmt.Errorf("%s: Input should be %s", field, quoteList(values, "or"))
	}
	return &s, nil
}

// profileText decodes a non-null string member of lo to hi characters.
func profileText(field string, raw json.RawMessage, lo, hi int) (*string, error) {
	var s string
	if isNullJSON(raw) || json.Unmarshal(raw, &s) != nil {
		return nil, fmt.Errorf("%s: Input should be a valid string", field)
	}
	if n := textLen(s); n < lo || n > hi {
		return nil, fmt.Errorf("%s: String should have %d to %d characters, got %d", field, lo, hi, n)
	}
	return &s, nil
}

// profileTime decodes a non-null RFC 3339 date-time member.
func profileTime(field string, raw json.RawMessage) (*string, error) {
	var s string
	if isNullJSON(raw) || json.Unmarshal(raw, &s) != nil {
		return nil, fmt.Errorf("%s: Input should be a valid datetime", field)
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return nil, fmt.Errorf("%s: Input should be a valid datetime, got %q", field, s)
	}
	return &s, nil
}

// profileMetadata applies a metadata member: strings only (null values
// refused), non-empty on create, "" deleting a key on update.
func profileMetadata(cur map[string]string, raw json.RawMessage, create bool) (map[string]string, error) {
	if raw != nil {
		var m map[string]*string
		if err := json.Unmarshal(raw, &m); err == nil {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				switch {
				case m[k] == nil:
					return nil, fmt.Errorf("metadata.%s: Input should be a valid string", k)
				case create && *m[k] == "":
					return nil, fmt.Errorf("metadata.%s: String should have at least 1 character", k)
				}
			}
		}
	}
	return patchMetadata(cur, raw, create, true)
}

// applyDetails applies an external_user_details member to cur (nil: none
// yet): each member sent replaces, none may be null.
func applyDetails(cur *externalUserDetailsWire, raw json.RawMessage) (*externalUserDetailsWire, error) {
	const f = "external_user_details"
	if isNullJSON(raw) {
		return nil, fmt.Errorf("%s: cannot be null", f)
	}
	var b externalUserDetailsBody
	if err := strictDecode(f, raw, &b); err != nil {
		return nil, err
	}
	next := externalUserDetailsWire{}
	if cur != nil {
		next = *cur
	}
	var err error
	set := func(dst **string, raw json.RawMessage, decode func(string, json.RawMessage) (*string, error), name string) {
		if raw == nil || err != nil {
			return
		}
		*dst, err = decode(f+"."+name, raw)
	}
	enum := func(values ...string) func(string, json.RawMessage) (*string, error) {
		return func(field string, raw json.RawMessage) (*string, error) {
			return profileEnum(field, raw, false, values...)
		}
	}
	text := func(field string, raw json.RawMessage) (*string, error) {
		return profileText(field, raw, 1, wire.MaxUserProfileTextLen)
	}
	set(&next.AccountStatus, b.AccountStatus, enum("active", "suspended", "blocked"), "account_status")
	set(&next.EntityType, b.EntityType, enum("individual", "business", "non_profit", "government"), "entity_type")
	set(&next.Country, b.Country, countryCode, "country")
	set(&next.EmailHash, b.EmailHash, text, "email_hash")
	set(&next.NameHash, b.NameHash, text, "name_hash")
	set(&next.ReferenceID, b.ReferenceID, text, "reference_id")
	set(&next.OnboardedAt, b.OnboardedAt, profileTime, "onboarded_at")
	return &next, err
}

// countryCode decodes an ISO 3166-1 alpha-2 code: two uppercase letters.
func countryCode(field string, raw json.RawMessage) (*string, error) {
	s, err := profileText(field, raw, 2, 2)
	if err == nil && strings.Trim(*s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		err = fmt.Errorf("%s: String should match pattern '^[A-Z]{2}$'", field)
	}
	return s, err
}

// applyProfileBody applies a create or update body to rec.
func (st *userProfileStore) applyProfileBody(rec *userProfileWire, b *userProfileBody, create bool) error {
	var err error
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  **string
	}{{"external_id", b.ExternalID, &rec.ExternalID}, {"name", b.Name, &rec.Name}} {
		if f.raw != nil {
			if string(bytes.TrimSpace(f.raw)) == `""` { // the schema's minimum is 1; null clears
				return fmt.Errorf("%s: String should have at least 1 character", f.name)
			}
			if *f.dst, err = optionalText(f.name, f.raw, wire.MaxUserProfileTextLen); err != nil {
				return err
			}
		}
	}
	if rec.Metadata, err = profileMetadata(rec.Metadata, b.Metadata, create); err != nil {
		return err
	}
	if b.Relationship != nil {
		if rec.Relationship, err = profileEnum("relationship", b.Relationship, !create, wire.UserProfileRelationships...); err != nil {
			return err
		}
	}
	if b.AccessType != nil {
		if rec.AccessType, err = profileEnum("access_type", b.AccessType, !create, "application", "passthrough"); err != nil {
			return err
		}
	}
	if b.ExternalUserOnboardedAt != nil {
		if rec.ExternalUserOnboardedAt, err = profileTime("external_user_onboarded_at", b.ExternalUserOnboardedAt); err != nil {
			return err
		}
	}
	if b.ExternalUserDetails != nil {
		if rec.ExternalUserDetails, err = applyDetails(rec.ExternalUserDetails, b.ExternalUserDetails); err != nil {
			return err
		}
	}
	return nil
}

// decodeProfileBody decodes a body strictly and checks its members
// against the request's betas.
func decodeProfileBody(r *http.Request) (*userProfileBody, error) {
	var b userProfileBody
	if err := decodeStrictJSON(r, &b); err != nil {
		return nil, err
	}
	return &b, checkProfileBetas(r, &b)
}

// cloneProfile copies a record deep enough that the copy can change.
func cloneProfile(p *userProfileWire) userProfileWire {
	c := *p
	c.actions = slices.Clone(p.actions)
	if p.ExternalUserDetails != nil {
		d := *p.ExternalUserDetails
		c.ExternalUserDetails = &d
	}
	return c
}

// create serves POST /v1/user_profiles.
func (st *userProfileStore) create(w http.ResponseWriter, r *http.Request) {
	b, err := decodeProfileBody(r)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	ts := st.srv.now().UTC().Format(fileTimeLayout)
	rec := &userProfileWire{Type: "user_profile", TrustGrants: map[string]trustGrantWire{}, CreatedAt: ts, UpdatedAt: ts}
	if badIf(w, r, st.applyProfileBody(rec, b, true)) {
		return
	}
	rec.ID = st.srv.newID("uprof_")
	writeJSON(w, http.StatusOK, appendLocked(&st.mu, &st.profiles, rec, func(p *userProfileWire) any { return profileView(r, p) }))
}

// lookup returns the profile named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *userProfileStore) lookup(w http.ResponseWriter, r *http.Request) *userProfileWire {
	return pathItem(w, r, st.profiles, "user_profile_id", "User profile", func(p *userProfileWire) string { return p.ID })
}

// get serves GET /v1/user_profiles/{user_profile_id}.
func (st *userProfileStore) get(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(p *userProfileWire) {
		writeJSON(w, http.StatusOK, profileView(r, p))
	})
}

// update serves POST /v1/user_profiles/{user_profile_id}.
func (st *userProfileStore) update(w http.ResponseWriter, r *http.Request) {
	b, err := decodeProfileBody(r)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(p *userProfileWire) {
		next := cloneProfile(p)
		if badIf(w, r, st.applyProfileBody(&next, b, false)) {
			return
		}
		if !bytes.Equal(encodeJSON(next), encodeJSON(*p)) {
			next.UpdatedAt = st.srv.now().UTC().Format(fileTimeLayout)
		}
		*p = next
		writeJSON(w, http.StatusOK, profileView(r, p))
	})
}

// enrollmentURL serves POST /v1/user_profiles/{user_profile_id}/enrollment_url.
func (st *userProfileStore) enrollmentURL(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > 0 {
		badRequest(w, r, fmt.Errorf("body: this endpoint takes no body"))
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.lookup(w, r) == nil {
		return
	}
	writeJSON(w, http.StatusOK, enrollmentURLWire{Type: "enrollment_url",
		URL:       "https://" + EnrollmentHost + "/" + st.srv.newID("enroll_"),
		ExpiresAt: st.srv.now().Add(enrollmentTTL).UTC().Format(fileTimeLayout)})
}

// list serves GET /v1/user_profiles.
func (st *userProfileStore) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	order, orderBy := cmp.Or(q.Get("order"), "desc"), cmp.Or(q.Get("order_by"), "created_at")
	switch {
	case order != "asc" && order != "desc":
		badRequest(w, r, fmt.Errorf("order: Input should be 'asc' or 'desc'"))
		return
	case orderBy != "created_at" && orderBy != "name":
		badRequest(w, r, fmt.Errorf("order_by: Input should be 'created_at' or 'name'"))
		return
	}
	keep, err := enforcementFilter(r)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	ga := profileGA(r)
	recs := locked(&st.mu, func() []listedProfile {
		var recs []listedProfile
		for _, p := range st.profiles { // creation order
			if keep == nil || keep[enforcementStatus(p)] {
				recs = append(recs, listedProfile{cloneProfile(p), ga})
			}
		}
		return recs
	})
	o := profileOrder(order == "desc", orderBy == "name")
	writeCursorList(w, r, recs, listOrder[listedProfile]{desc: o.desc, key: func(l listedProfile) position { return o.key(l.p) }})
}

// profileOrder is the order of the user profiles list: by creation (id),
// or by name with ties by creation, unnamed profiles last in either
// direction.
func profileOrder(desc, byName bool) listOrder[userProfileWire] {
	if !byName {
		return orderByID(func(p userProfileWire) string { return p.ID }, desc)
	}
	// The first value puts the unnamed last: it sorts them after the named
	// ascending, before them descending.
	named, unnamed := "0", "1"
	if desc {
		named, unnamed = unnamed, named
	}
	return listOrder[userProfileWire]{desc: desc, key: func(p userProfileWire) position {
		if p.Name == nil {
			return position{unnamed, "", p.ID}
		}
		return position{named, *p.Name, p.ID}
	}}
}
