package mmstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The user-profiles API as it is GA (vaults-user-profiles.md, "Additions
// from R2" §B–§D).
//
//   - A request with no user-profiles beta is a GA request: it needs no
//     beta and gets the GA record: id, type, metadata, name (null until
//     set), access_type ("application" until set), external_user_details
//     (every member, null until set), programs, enforcement_status and
//     enforcement_actions, the timestamps; no trust_grants, external_id,
//     relationship or external_user_onboarded_at. A GA body may carry
//     name, metadata, access_type and external_user_details only.
//   - GET /v1/user_profiles takes enforcement_status[] (unrestricted,
//     pending, restricted, banned) under GA only (400 under a beta). In a
//     list, programs.efs is always null and a cyber program lists no tiers.
//   - DELETE /v1/user_profiles/{user_profile_id} answers {id, type:
//     "user_profile_deleted"}; the profile is gone.
//   - POST /v1/user_profiles/{user_profile_id}/action_urls takes {action:
//     {type: "enroll_end_user"}} and answers {type:
//     "user_profile_action_url", url, expires_at}, a link on
//     EnrollmentHost lasting enrollmentTTL.
//   - GET and POST /v1/user_profiles/{user_profile_id}/providers/google/data_controls
//     need both user-profiles-2026-09-04 and
//     google-managed-data-controls-2026-09-01 (404 otherwise, as an
//     unknown path). See dataControlsWire.
//   - Enforcement and programs are the vendor's to set: tests set them
//     with Server.OpenEnforcementAction, ResolveEnforcementAction and
//     SetUserProfilePrograms, and the fake delivers the matching webhooks.

// profileGA reports whether r is a GA user-profiles request: it carries
// no user-profiles beta at all.
func profileGA(r *http.Request) bool {
	return !slices.ContainsFunc(betaNames(r.Header), func(n string) bool {
		return n == wire.BetaUserProfiles || strings.HasPrefix(n, wire.BetaUserProfiles+"-")
	})
}

// profileBetaOnly reports whether the request's path is one of the
// beta-only user-profiles endpoints, which the GA exemption does not
// cover.
func profileBetaOnly(path string) bool {
	return strings.HasSuffix(path, "/enrollment_url") || strings.HasSuffix(path, "/data_controls")
}

// checkGAProfileBody refuses the members the GA body does not have (it
// takes name, metadata, access_type and external_user_details).
func checkGAProfileBody(b *userProfileBody) error {
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"external_id", b.ExternalID}, {"relationship", b.Relationship}, {"external_user_onboarded_at", b.ExternalUserOnboardedAt}} {
		if f.raw != nil {
			return fmt.Errorf("%s: Extra inputs are not permitted (the GA API has no %s; send a user-profiles beta to use it)", f.name, f.name)
		}
	}
	return nil
}

// enforcementActionWire is one open enforcement action.
type enforcementActionWire struct {
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	Reason    string  `json:"reason"`
	Action    *string `json:"action"`
	OpenedAt  string  `json:"opened_at"`
	ExpiresAt *string `json:"expires_at"`
}

// userProfileGAWire is the GA UserProfile record.
type userProfileGAWire struct {
	ID                  string                  `json:"id"`
	Type                string                  `json:"type"`
	Metadata            map[string]string       `json:"metadata"`
	Name                *string                 `json:"name"`
	AccessType          string                  `json:"access_type"`
	ExternalUserDetails externalUserDetailsWire `json:"external_user_details"`
	Programs            json.RawMessage         `json:"programs"`
	EnforcementStatus   string                  `json:"enforcement_status"`
	EnforcementActions  []enforcementActionWire `json:"enforcement_actions"`
	CreatedAt           string                  `json:"created_at"`
	UpdatedAt           string                  `json:"updated_at"`
}

// noPrograms is the programs member of a profile nothing was set for.
var noPrograms = json.RawMessage(`{"cyber":null,"efs":null}`)

// gaView is p's GA record; inList gives the list form of programs.
func gaView(p *userProfileWire, inList bool) userProfileGAWire {
	v := userProfileGAWire{ID: p.ID, Type: p.Type, Metadata: p.Metadata, Name: p.Name, AccessType: "application",
		Programs: p.programs, EnforcementStatus: enforcementStatus(p), EnforcementActions: p.actions,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
	if p.AccessType != nil {
		v.AccessType = *p.AccessType
	}
	if p.ExternalUserDetails != nil {
		v.ExternalUserDetails = *p.ExternalUserDetails
	}
	if v.Programs == nil {
		v.Programs = noPrograms
	}
	if inList {
		v.Programs = listPrograms(v.Programs)
	}
	if v.EnforcementActions == nil {
		v.EnforcementActions = []enforcementActionWire{}
	}
	return v
}

// listPrograms is programs as a list shows it: efs null, a cyber program
// without its tiers.
func listPrograms(programs json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(programs, &m) != nil {
		return programs
	}
	m["efs"] = json.RawMessage("null")
	var cyber map[string]json.RawMessage
	if json.Unmarshal(m["cyber"], &cyber) == nil && cyber != nil {
		cyber["tiers"] = json.RawMessage("{}")
		m["cyber"] = encodeJSON(cyber)
	}
	return encodeJSON(m)
}

// enforcementStatus decides a profile's status by the first rule that
// applies: banned, pending, restricted, unrestricted.
func enforcementStatus(p *userProfileWire) string {
	switch {
	case slices.ContainsFunc(p.actions, func(a enforcementActionWire) bool { return a.Type == "ban" }):
		return "banned"
	case p.verificationSubmitted &&
		slices.ContainsFunc(p.actions, func(a enforcementActionWire) bool { return a.Action != nil && *a.Action == "verify" }) &&
		!slices.ContainsFunc(p.actions, func(a enforcementActionWire) bool { return a.Reason == "account_compromise" }):
		return "pending"
	case len(p.actions) > 0:
		return "restricted"
	}
	return "unrestricted"
}

// profileView is the record r gets for p: GA or the beta record.
func profileView(r *http.Request, p *userProfileWire) any {
	if profileGA(r) {
		return gaView(p, false)
	}
	return cloneProfile(p)
}

// listedProfile is a profile as a list writes it: the GA list form, or
// the beta record.
type listedProfile struct {
	p  userProfileWire
	ga bool
}

func (l listedProfile) MarshalJSON() ([]byte, error) {
	if l.ga {
		return encodeJSON(gaView(&l.p, true)), nil
	}
	return encodeJSON(l.p), nil
}

// enforcementStatuses are the values of the enforcement_status[] filter.
var enforcementStatuses = []string{"unrestricted", "pending", "restricted", "banned"}

// enforcementFilter reads enforcement_status[]: nil for no filter.
func enforcementFilter(r *http.Request) (map[string]bool, error) {
	values := r.URL.Query()["enforcement_status[]"]
	if len(values) == 0 {
		return nil, nil
	}
	if !profileGA(r) {
		return nil, errors.New("enforcement_status: not accepted under a user-profiles beta (GA only)")
	}
	keep := map[string]bool{}
	for _, v := range values {
		if !slices.Contains(enforcementStatuses, v) {
			return nil, fmt.Errorf("enforcement_status: Input should be %s", quoteList(enforcementStatuses, "or"))
		}
		keep[v] = true
	}
	return keep, nil
}

// delete serves DELETE /v1/user_profiles/{user_profile_id}.
func (st *userProfileStore) delete(w http.ResponseWriter, r *http.Request) {
	st.mu.Lock()
	defer st.mu.Unlock()
	p := st.lookup(w, r)
	if p == nil {
		return
	}
	st.profiles = slices.DeleteFunc(st.profiles, func(q *userProfileWire) bool { return q == p })
	writeJSON(w, http.StatusOK, map[string]string{"id": p.ID, "type": "user_profile_deleted"})
}

// actionURL serves POST /v1/user_profiles/{user_profile_id}/action_urls.
func (st *userProfileStore) actionURL(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Action *struct {
			Type string `json:"type"`
		} `json:"action"`
	}
	if err := decodeStrictJSON(r, &b); err != nil {
		badRequest(w, r, err)
		return
	}
	switch {
	case b.Action == nil:
		badRequest(w, r, errors.New("action: Field required"))
		return
	case b.Action.Type != "enroll_end_user":
		badRequest(w, r, fmt.Errorf("action.type: Input should be 'enroll_end_user'"))
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.lookup(w, r) == nil {
		return
	}
	writeJSON(w, http.StatusOK, enrollmentURLWire{Type: "user_profile_action_url",
		URL:       "https://" + EnrollmentHost + "/verify/" + st.srv.newID("act_"),
		ExpiresAt: st.srv.now().Add(enrollmentTTL).UTC().Format(fileTimeLayout)})
}

// EnforcementAction is an enforcement action a test opens on a profile
// (Server.OpenEnforcementAction), as the vendor would.
type EnforcementAction struct {
	// Type is "restriction" or "ban".
	Type string
	// Reason is unsupported_region, fraud_or_abuse, high_harm,
	// usage_policy_violation, account_compromise or unspecified.
	Reason string
	// Verify makes the action clearable by an identity check (action
	// "verify"); not for bans.
	Verify bool
	// ExpiresAt ends the action by itself; zero for open-ended (always for
	// bans and account_compromise).
	ExpiresAt time.Time
}

// OpenEnforcementAction opens an enforcement action on a profile and
// returns its id ("enac_…"). A webhook user_profile.enforcement_action_opened
// is delivered when webhooks are on.
func (s *Server) OpenEnforcementAction(userProfileID string, a EnforcementAction) (string, error) {
	switch {
	case a.Type != "restriction" && a.Type != "ban":
		return "", fmt.Errorf("mmstest: enforcement action type %q: want restriction or ban", a.Type)
	case a.Type == "ban" && a.Verify:
		return "", errors.New("mmstest: a ban cannot be cleared by verification")
	case (a.Type == "ban" || a.Reason == "account_compromise") && !a.ExpiresAt.IsZero():
		return "", errors.New("mmstest: bans and account_compromise actions are open-ended")
	}
	st := s.userProfiles
	id := s.newID("enac_")
	err := st.withProfile(userProfileID, func(p *userProfileWire) {
		act := enforcementActionWire{Type: a.Type, ID: id, Reason: a.Reason, OpenedAt: s.now().UTC().Format(fileTimeLayout)}
		if a.Verify {
			verify := "verify"
			act.Action = &verify
		}
		if !a.ExpiresAt.IsZero() {
			at := a.ExpiresAt.UTC().Format(fileTimeLayout)
			act.ExpiresAt = &at
		}
		p.actions = append(p.actions, act)
	})
	if err != nil {
		return "", err
	}
	s.emitWebhook("user_profile.enforcement_action_opened", userProfileID, map[string]string{"enforcement_action_id": id})
	return id, nil
}

// ResolveEnforcementAction closes an open enforcement action; a webhook
// user_profile.enforcement_action_resolved is delivered when webhooks are
// on.
func (s *Server) ResolveEnforcementAction(userProfileID, actionID string) error {
	found := false
	err := s.userProfiles.withProfile(userProfileID, func(p *userProfileWire) {
		n := len(p.actions)
		p.actions = slices.DeleteFunc(p.actions, func(a enforcementActionWire) bool { return a.ID == actionID })
		found = len(p.actions) < n
		if len(p.actions) == 0 {
			p.verificationSubmitted = false
		}
	})
	if err == nil && !found {
		err = fmt.Errorf("mmstest: user profile %s has no open enforcement action %s", userProfileID, actionID)
	}
	if err != nil {
		return err
	}
	s.emitWebhook("user_profile.enforcement_action_resolved", userProfileID, map[string]string{"enforcement_action_id": actionID})
	return nil
}

// SubmitVerification records that the profile's end user submitted the
// identity check a "verify" action asks for: the profile is pending until
// the action is resolved.
func (s *Server) SubmitVerification(userProfileID string) error {
	return s.userProfiles.withProfile(userProfileID, func(p *userProfileWire) { p.verificationSubmitted = true })
}

// SetUserProfilePrograms sets a profile's programs member (a JSON object
// with cyber and efs, each null or the program) and delivers
// user_profile.program_status_updated when webhooks are on.
func (s *Server) SetUserProfilePrograms(userProfileID string, programs json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(programs, &m); err != nil || m == nil {
		return fmt.Errorf("mmstest: programs must be a JSON object: %v", err)
	}
	for _, k := range []string{"cyber", "efs"} {
		if _, ok := m[k]; !ok {
			m[k] = json.RawMessage("null")
		}
	}
	err := s.userProfiles.withProfile(userProfileID, func(p *userProfileWire) { p.programs = encodeJSON(m) })
	if err == nil {
		s.emitWebhook("user_profile.program_status_updated", userProfileID, nil)
	}
	return err
}

// withProfile runs f on the profile with the store's lock held; a missing
// profile is an error.
func (st *userProfileStore) withProfile(id string, f func(*userProfileWire)) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, p := range st.profiles {
		if p.ID == id {
			f(p)
			p.UpdatedAt = st.srv.now().UTC().Format(fileTimeLayout)
			return nil
		}
	}
	return fmt.Errorf("mmstest: no user profile %s", id)
}
