package admin_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// codeOf is an API error's error.details.error_code ("" for none).
func codeOf(err error) string {
	var apiErr *mms.Error
	if errors.As(err, &apiErr) {
		return string(apiErr.Code)
	}
	return ""
}

// reviewFake is a fake with a settable clock and an admin client.
func reviewFake(t *testing.T) (*mmstest.Server, *admin.Client, func(time.Duration)) {
	t.Helper()
	var mu sync.Mutex
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s := mmstest.NewServer(mmstest.WithClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now }))
	t.Cleanup(s.Close)
	c, err := admin.NewClient(s.AdminClientOptions()...)
	require.NoError(t, err)
	return s, c, func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
}

func TestComplianceReviewCases(t *testing.T) {
	s, c, tick := reviewFake(t)
	id1, items1 := s.Org().AddReviewCase([]string{"cyber", "fraud"}, mmstest.ReviewItem{UserProfileID: "uprof_1"}, mmstest.ReviewItem{})
	tick(time.Minute)
	id2, _ := s.Org().AddReviewCase(nil)

	got, err := c.ComplianceReview.GetCase(ctx, id1)
	require.NoError(t, err)
	req := s.Requests()[len(s.Requests())-1]
	assert.Equal(t, "/v1/compliance/review/cases/"+id1, req.Path)
	assert.Empty(t, req.Header.Get(wire.HeaderBeta), "no beta is sent by default")
	assert.Equal(t, mmstest.DefaultAdminKey, req.Header.Get(wire.HeaderAPIKey))
	assert.Equal(t, []admin.PolicyCategory{admin.PolicyCyber, admin.PolicyFraud}, got.PolicyCategories)
	assert.IsType(t, admin.CaseOpen{}, got.Status)
	require.Len(t, got.Transcripts, 2)
	assert.Equal(t, items1[0], got.Transcripts[0].ItemID)
	assert.Equal(t, "uprof_1", *got.Transcripts[0].UserProfileID)
	assert.Nil(t, got.Transcripts[1].UserProfileID)
	assert.Nil(t, got.EnforcementAction)

	_, err = c.ComplianceReview.GetCase(ctx, "rvc_missing")
	assert.Equal(t, http.StatusNotFound, statusOf(err))

	all := collect(t, c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{}))
	require.Len(t, all, 2)
	assert.Equal(t, []string{id2, id1}, []string{all[0].ID, all[1].ID}, "newest first by default")
	asc := collect(t, c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{Order: admin.OrderAsc, Limit: 1}))
	assert.Equal(t, []string{id1, id2}, []string{asc[0].ID, asc[1].ID}, "asc, paged one by one")
	byProfile := collect(t, c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{UserProfileID: "uprof_1"}))
	require.Len(t, byProfile, 1)
	assert.Equal(t, id1, byProfile[0].ID)
	newer := collect(t, c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{
		CreatedAt: admin.TimeBounds{GT: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}}))
	require.Len(t, newer, 1)
	assert.Equal(t, id2, newer[0].ID)
	assert.Contains(t, s.Requests()[len(s.Requests())-1].RawQuery, "created_at%5Bgt%5D=2026-11-01T12%3A00%3A00Z")
}

func TestComplianceReviewSyncAndCursorScope(t *testing.T) {
	s, c, tick := reviewFake(t)
	var ids []string
	for range 3 {
		id, _ := s.Org().AddReviewCase(nil)
		ids = append(ids, id)
		tick(time.Second)
	}
	start := time.Date(2026, 11, 1, 12, 0, 1, 0, time.UTC)
	// A notice updates its case: the sync recipe sees it again.
	s.Org().AddReviewNotice(admin.NoticeResponseRequested, "please respond", ids[0])
	synced := collect(t, c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{
		UpdatedAt: admin.TimeBounds{GTE: start}, OrderBy: admin.CaseOrderByUpdatedAt, Order: admin.OrderAsc, Limit: 1}))
	var got []string
	for _, x := range synced {
		got = append(got, x.ID)
	}
	assert.Equal(t, []string{ids[1], ids[2], ids[0]}, got, "by updated_at ascending")

	// A page token used with other filters is refused by the service.
	req, _ := http.NewRequest("GET", s.URL+"/v1/compliance/review/cases?limit=1&order=asc", nil)
	req.Header.Set(wire.HeaderAPIKey, mmstest.DefaultAdminKey)
	req.Header.Set("Vendor-Version", "2023-06-01")
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	var page struct {
		NextPage string `json:"next_page"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&page))
	resp.Body.Close()
	require.NotEmpty(t, page.NextPage)
	err = firstErr(c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{Page: mms.Cursor{Token: page.NextPage}, Order: admin.OrderDesc}))
	assert.Equal(t, http.StatusBadRequest, statusOf(err), "a cursor of another order")
	more := collect(t, c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{Page: mms.Cursor{Token: page.NextPage}, Order: admin.OrderAsc, Limit: 1}))
	assert.Len(t, more, 2, "the same filters continue")
}

func TestComplianceReviewRespond(t *testing.T) {
	s, c, _ := reviewFake(t)
	id, items := s.Org().AddReviewCase([]string{"cyber"}, mmstest.ReviewItem{}, mmstest.ReviewItem{})
	p := admin.ComplianceRespondParams{Determination: admin.DeterminationViolation,
		PolicyCategories: []admin.PolicyCategory{admin.PolicyCyber, admin.PolicyFraud},
		Verdicts: []admin.CaseVerdict{{ItemID: items[0], Determination: admin.DeterminationViolation, PolicyCategory: admin.PolicyCyber},
			{ItemID: items[1], Determination: admin.DeterminationNoViolation}}}
	got, err := c.ComplianceReview.RespondToCase(ctx, id, p)
	require.NoError(t, err)
	req := s.Requests()[len(s.Requests())-1]
	assert.Equal(t, "/v1/compliance/review/cases/"+id+"/respond", req.Path)
	assert.JSONEq(t, `{"determination":"violation","policy_categories":["cyber","fraud"],"verdicts":[{"item_id":"`+items[0]+
		`","determination":"violation","policy_category":"cyber"},{"item_id":"`+items[1]+`","determination":"no_violation"}]}`, string(req.Body))
	closed, ok := got.Status.(admin.CaseClosed)
	require.True(t, ok)
	assert.Equal(t, admin.CaseClosedResponded, closed.Reason.Type)

	// The same response, lists in another order: unchanged.
	same := p
	same.PolicyCategories = []admin.PolicyCategory{admin.PolicyFraud, admin.PolicyCyber}
	same.Verdicts = []admin.CaseVerdict{p.Verdicts[1], p.Verdicts[0]}
	again, err := c.ComplianceReview.RespondToCase(ctx, id, same)
	require.NoError(t, err)
	assert.Equal(t, got.UpdatedAt, again.UpdatedAt)
	// A different response: case_closed.
	_, err = c.ComplianceReview.RespondToCase(ctx, id, admin.ComplianceRespondParams{Determination: admin.DeterminationNoViolation})
	assert.Equal(t, http.StatusBadRequest, statusOf(err))
	assert.Equal(t, "case_closed", codeOf(err))

	// A case closed with no response: case_closed.
	ended, _ := s.Org().AddReviewCase(nil)
	require.True(t, s.Org().EndReviewCase(ended, false))
	_, err = c.ComplianceReview.RespondToCase(ctx, ended, admin.ComplianceRespondParams{Determination: admin.DeterminationNoViolation})
	assert.Equal(t, "case_closed", codeOf(err))
	x, err := c.ComplianceReview.GetCase(ctx, ended)
	require.NoError(t, err)
	assert.Equal(t, admin.CaseClosedWindowEnded, x.Status.(admin.CaseClosed).Reason.Type)
	closedOnly := collect(t, c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{Status: admin.CaseStatusClosed}))
	assert.Len(t, closedOnly, 2)

	// The end customer reviews it: 403.
	theirs, _ := s.Org().AddReviewCase(nil)
	require.True(t, s.Org().EndReviewCase(theirs, true))
	_, err = c.ComplianceReview.RespondToCase(ctx, theirs, admin.ComplianceRespondParams{Determination: admin.DeterminationNoViolation})
	assert.Equal(t, http.StatusForbidden, statusOf(err))
	assert.Equal(t, "case_reviewed_by_end_customer", codeOf(err))
	_, err = c.ComplianceReview.RespondToCase(ctx, "rvc_missing", admin.ComplianceRespondParams{Determination: admin.DeterminationNoViolation})
	assert.Equal(t, http.StatusNotFound, statusOf(err))
}

func TestComplianceReviewItems(t *testing.T) {
	s, c, _ := reviewFake(t)
	_, items := s.Org().AddReviewCase(nil,
		mmstest.ReviewItem{UserProfileID: "uprof_9", Model: "claude-test", Response: map[string]any{"id": "msg_resp", "type": "message", "role": "assistant",
			"model": "claude-test", "content": []any{map[string]any{"type": "text", "text": "hi"}}, "stop_reason": "end_turn",
			"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}},
		mmstest.ReviewItem{Unavailable: "not_captured"})

	it, err := c.ComplianceReview.GetItem(ctx, items[0], admin.ComplianceItemGetParams{UserProfileID: "uprof_9"})
	require.NoError(t, err)
	assert.Equal(t, "uprof_9", s.Requests()[len(s.Requests())-1].Header.Get(wire.HeaderUserProfileID))
	assert.Equal(t, items[0], it.ID)
	assert.Equal(t, admin.ItemAPIActor{APIKeyID: "apikey_fake"}, it.Actor)
	assert.Equal(t, "safeguards_review", it.ReadReason.Type)
	d, ok := it.Details.(admin.MessageItemDetails)
	require.True(t, ok)
	assert.Equal(t, "claude-test", *d.Model)
	require.NotNil(t, d.Content)
	assert.Equal(t, "create_message", d.Content.Type)
	assert.Contains(t, string(d.Content.Request), `"max_tokens":16`)
	require.NotNil(t, d.Content.Response)
	assert.Equal(t, "msg_resp", d.Content.Response.ID)
	assert.True(t, it.ContentExpiresAt.After(it.CreatedAt))

	// Without the profile header the item is a 404, as if missing.
	_, err = c.ComplianceReview.GetItem(ctx, items[0], admin.ComplianceItemGetParams{})
	assert.Equal(t, http.StatusNotFound, statusOf(err))

	un, err := c.ComplianceReview.GetItem(ctx, items[1], admin.ComplianceItemGetParams{})
	require.NoError(t, err)
	ud := un.Details.(admin.MessageItemDetails)
	assert.Nil(t, ud.Content)
	assert.Equal(t, "not_captured", ud.ContentUnavailableReason.Type)
	assert.Empty(t, s.Requests()[len(s.Requests())-1].Header.Get(wire.HeaderUserProfileID))
}

func TestComplianceReviewNotices(t *testing.T) {
	s, c, tick := reviewFake(t)
	caseID, _ := s.Org().AddReviewCase(nil)
	n1 := s.Org().AddReviewNotice(admin.NoticeWarning, "about the organization")
	tick(time.Second)
	n2 := s.Org().AddReviewNotice(admin.NoticeResponseRequested, "respond please", caseID)
	s.Org().AddReviewNotice(admin.NoticeQuestion, "about an unknown case", "rvc_unreadable")

	all := collect(t, c.ComplianceReview.ListNotices(ctx, admin.ComplianceNoticeListParams{}))
	require.Len(t, all, 2, "a notice naming a case the key cannot read is not returned")
	assert.Equal(t, []string{n2, n1}, []string{all[0].ID, all[1].ID})
	assert.Equal(t, admin.NoticeResponseRequested, all[0].Kind.Type)
	assert.Equal(t, []string{caseID}, all[0].CaseIDs)
	assert.Empty(t, all[1].CaseIDs)
	assert.Nil(t, all[0].RespondBy)
	req := s.Requests()[len(s.Requests())-1]
	assert.Equal(t, "/v1/compliance/review/notices", req.Path)
	assert.Empty(t, req.Header.Get(wire.HeaderBeta))

	byCase := collect(t, c.ComplianceReview.ListNotices(ctx, admin.ComplianceNoticeListParams{CaseID: caseID}))
	require.Len(t, byCase, 1)
	assert.Equal(t, n2, byCase[0].ID)
	polled := collect(t, c.ComplianceReview.ListNotices(ctx, admin.ComplianceNoticeListParams{Order: admin.OrderAsc, Limit: 1,
		CreatedAt: admin.TimeBounds{GTE: time.Date(2026, 11, 1, 12, 0, 1, 0, time.UTC)}}))
	require.Len(t, polled, 1)
	assert.Equal(t, n2, polled[0].ID)
}

func TestComplianceReviewCredentials(t *testing.T) {
	s, _, _ := reviewFake(t)
	id, _ := s.Org().AddReviewCase(nil)
	// A plain API key is refused before sending.
	c, err := admin.NewClient(s.ClientOptions()...)
	require.NoError(t, err)
	_, err = c.ComplianceReview.GetCase(ctx, id)
	require.ErrorIs(t, err, admin.ErrCredential)
	require.ErrorIs(t, firstErr(c.ComplianceReview.ListNotices(ctx, admin.ComplianceNoticeListParams{})), admin.ErrCredential)
	assert.Empty(t, s.Requests())
	// The fake refuses an API key there, and an admin key elsewhere under /v1/compliance/.
	for _, tt := range []struct {
		path, key string
		want      int
	}{
		{"/v1/compliance/review/cases/" + id, mmstest.DefaultAdminKey, 200},
		{"/v1/compliance/review/cases/" + id, mmstest.DefaultAPIKey, 403},
		{"/v1/compliance/other", mmstest.DefaultAdminKey, 401},
	} {
		req, _ := http.NewRequest("GET", s.URL+tt.path, nil)
		req.Header.Set(wire.HeaderAPIKey, tt.key)
		req.Header.Set("Vendor-Version", "2023-06-01")
		resp, err := s.Client().Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, tt.want, resp.StatusCode, tt.path)
	}
	// The list refuses the profile header without its parameter.
	oc, err := admin.NewClient(s.AdminClientOptions()...)
	require.NoError(t, err)
	err = firstErr(oc.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{}, option.WithHeader(wire.HeaderUserProfileID, "uprof_1")))
	assert.Equal(t, http.StatusBadRequest, statusOf(err))
}

func TestComplianceReviewValidation(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	vio, no := admin.DeterminationViolation, admin.DeterminationNoViolation
	cats := func(cs ...admin.PolicyCategory) []admin.PolicyCategory { return cs }
	respond := []struct {
		name  string
		p     admin.ComplianceRespondParams
		field string // "" valid
	}{
		{"no determination", admin.ComplianceRespondParams{}, "determination"},
		{"unknown determination", admin.ComplianceRespondParams{Determination: "maybe"}, "determination"},
		{"violation without categories", admin.ComplianceRespondParams{Determination: vio}, "policy_categories"},
		{"violation with 1", admin.ComplianceRespondParams{Determination: vio, PolicyCategories: cats("bio")}, ""},
		{"violation with 4", admin.ComplianceRespondParams{Determination: vio, PolicyCategories: cats("bio", "chem", "cyber", "io")}, ""},
		{"violation with 5", admin.ComplianceRespondParams{Determination: vio, PolicyCategories: cats("bio", "chem", "cyber", "io", "mgw")}, "policy_categories"},
		{"no_violation with none", admin.ComplianceRespondParams{Determination: no}, ""},
		{"no_violation with one", admin.ComplianceRespondParams{Determination: no, PolicyCategories: cats("bio")}, "policy_categories"},
		{"benign", admin.ComplianceRespondParams{Determination: vio, PolicyCategories: cats("benign")}, "policy_categories[0]"},
		{"undetermined", admin.ComplianceRespondParams{Determination: vio, PolicyCategories: cats("bio", "undetermined")}, "policy_categories[1]"},
		{"unknown category", admin.ComplianceRespondParams{Determination: vio, PolicyCategories: cats("nope")}, "policy_categories[0]"},
		{"repeated category", admin.ComplianceRespondParams{Determination: vio, PolicyCategories: cats("bio", "bio")}, "policy_categories[1]"},
		{"verdict without item", admin.ComplianceRespondParams{Determination: no, Verdicts: []admin.CaseVerdict{{Determination: no}}}, "verdicts[0].item_id"},
		{"verdict without determination", admin.ComplianceRespondParams{Determination: no, Verdicts: []admin.CaseVerdict{{ItemID: "msg_1"}}}, "verdicts[0].determination"},
		{"verdict repeated item", admin.ComplianceRespondParams{Determination: no, Verdicts: []admin.CaseVerdict{{ItemID: "msg_1", Determination: no}, {ItemID: "msg_1", Determination: no}}}, "verdicts[1].item_id"},
		{"verdict no_violation with category", admin.ComplianceRespondParams{Determination: no, Verdicts: []admin.CaseVerdict{{ItemID: "msg_1", Determination: no, PolicyCategory: "bio"}}}, "verdicts[0].policy_category"},
		{"verdict violation without category", admin.ComplianceRespondParams{Determination: no, Verdicts: []admin.CaseVerdict{{ItemID: "msg_1", Determination: vio}}}, ""},
		{"verdict benign", admin.ComplianceRespondParams{Determination: no, Verdicts: []admin.CaseVerdict{{ItemID: "msg_1", Determination: vio, PolicyCategory: "benign"}}}, "verdicts[0].policy_category"},
	}
	s, c, _ := reviewFake(t)
	for _, tt := range respond {
		t.Run("respond/"+tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.field == "" {
				require.NoError(t, err)
				return
			}
			var ve *mms.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
			n := len(s.Requests())
			_, err = c.ComplianceReview.RespondToCase(ctx, "rvc_1", tt.p)
			require.ErrorAs(t, err, &ve)
			assert.Len(t, s.Requests(), n, "nothing sent")
		})
	}
	lists := []struct {
		name  string
		p     admin.ComplianceCaseListParams
		field string
	}{
		{"limit 0 (default)", admin.ComplianceCaseListParams{}, ""},
		{"limit 1", admin.ComplianceCaseListParams{Limit: 1}, ""},
		{"limit 100", admin.ComplianceCaseListParams{Limit: 100}, ""},
		{"limit 101", admin.ComplianceCaseListParams{Limit: 101}, "limit"},
		{"limit -1", admin.ComplianceCaseListParams{Limit: -1}, "limit"},
		{"status", admin.ComplianceCaseListParams{Status: "pending"}, "status"},
		{"order", admin.ComplianceCaseListParams{Order: "up"}, "order"},
		{"order_by", admin.ComplianceCaseListParams{OrderBy: "id"}, "order_by"},
		{"gt with gte", admin.ComplianceCaseListParams{CreatedAt: admin.TimeBounds{GT: t0, GTE: t0}}, "created_at[gt]"},
		{"lt with lte", admin.ComplianceCaseListParams{UpdatedAt: admin.TimeBounds{LT: t0, LTE: t0}}, "updated_at[lt]"},
		{"lower equal upper", admin.ComplianceCaseListParams{UpdatedAt: admin.TimeBounds{GTE: t0, LTE: t0}}, ""},
		{"lower after upper", admin.ComplianceCaseListParams{UpdatedAt: admin.TimeBounds{GTE: t0.Add(time.Second), LTE: t0}}, "updated_at"},
	}
	for _, tt := range lists {
		t.Run("cases/"+tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.field == "" {
				require.NoError(t, err)
				return
			}
			var ve *mms.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
			n := len(s.Requests())
			require.ErrorAs(t, firstErr(c.ComplianceReview.ListCases(ctx, tt.p)), &ve)
			assert.Len(t, s.Requests(), n, "nothing sent")
		})
	}
	notices := []struct {
		name  string
		p     admin.ComplianceNoticeListParams
		field string
	}{
		{"limit 100", admin.ComplianceNoticeListParams{Limit: 100}, ""},
		{"limit 101", admin.ComplianceNoticeListParams{Limit: 101}, "limit"},
		{"order", admin.ComplianceNoticeListParams{Order: "sideways"}, "order"},
		{"gt with gte", admin.ComplianceNoticeListParams{CreatedAt: admin.TimeBounds{GT: t0, GTE: t0}}, "created_at[gt]"},
	}
	for _, tt := range notices {
		t.Run("notices/"+tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.field == "" {
				require.NoError(t, err)
				return
			}
			var ve *mms.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
		})
	}
	for _, tt := range []struct {
		profile string
		ok      bool
	}{{"", true}, {"uprof_1", true}, {"uprof 1", false}, {"uprof_1\r\nX-Evil: 1", false}, {"uprof_\x7f", false}} {
		err := admin.ComplianceItemGetParams{UserProfileID: tt.profile}.Validate()
		if tt.ok {
			require.NoError(t, err, tt.profile)
			continue
		}
		var ve *mms.ValidationError
		require.ErrorAs(t, err, &ve, tt.profile)
		assert.Equal(t, "user_profile_id", ve.Field)
		n := len(s.Requests())
		_, err = c.ComplianceReview.GetItem(ctx, "msg_1", admin.ComplianceItemGetParams{UserProfileID: tt.profile})
		require.ErrorAs(t, err, &ve)
		assert.Len(t, s.Requests(), n, "nothing sent")
	}
	for _, id := range []string{"", ".", ".."} {
		_, err := c.ComplianceReview.GetCase(ctx, id)
		var ve *mms.ValidationError
		require.ErrorAs(t, err, &ve, "case id %q", id)
		_, err = c.ComplianceReview.GetItem(ctx, id, admin.ComplianceItemGetParams{})
		require.ErrorAs(t, err, &ve, "item id %q", id)
	}
}

// TestComplianceReviewDecodeUnknown: a status, actor or details type this
// SDK version cannot name decodes to its Unknown variant and writes back
// as it came; unmodelled members land in Extra; a null actor is nil.
func TestComplianceReviewDecodeUnknown(t *testing.T) {
	var cs admin.ComplianceCase
	require.NoError(t, json.Unmarshal([]byte(`{"id":"rvc_1","type":"compliance_review_case","organization_id":"o","workspace_id":null,
		"policy_categories":["brand_new"],"enforcement_action":{"type":"key_suspended"},"status":{"type":"paused","until":"x"},
		"transcripts":[{"item_id":"msg_1","user_profile_id":null,"note":1}],"created_at":"2026-11-01T00:00:00Z",
		"updated_at":"2026-11-01T00:00:00Z","priority":"high"}`), &cs))
	u, ok := cs.Status.(admin.UnknownCaseStatus)
	require.True(t, ok)
	assert.Equal(t, "paused", u.Type)
	assert.Equal(t, []admin.PolicyCategory{"brand_new"}, cs.PolicyCategories)
	assert.Equal(t, "key_suspended", cs.EnforcementAction.Type)
	assert.JSONEq(t, `"high"`, string(cs.Extra["priority"]))
	assert.JSONEq(t, `1`, string(cs.Transcripts[0].Extra["note"]))
	out, err := json.Marshal(cs)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"status":{"type":"paused","until":"x"}`)

	var it admin.ComplianceItem
	require.NoError(t, json.Unmarshal([]byte(`{"id":"msg_1","type":"compliance_review_item","organization_id":"o","workspace_id":null,
		"user_profile_id":null,"actor":{"type":"robot_actor","robot_id":"r"},"created_at":"2026-11-01T00:00:00Z",
		"content_expires_at":"2026-12-01T00:00:00Z","read_reason":{"type":"legal_hold"},"details":{"type":"batch","n":2}}`), &it))
	assert.Equal(t, "robot_actor", it.Actor.(admin.UnknownItemActor).Type)
	assert.Equal(t, "batch", it.Details.(admin.UnknownItemDetails).Type)
	assert.Equal(t, "legal_hold", it.ReadReason.Type)
	var nullActor admin.ComplianceItem
	require.NoError(t, json.Unmarshal([]byte(`{"id":"msg_2","type":"compliance_review_item","organization_id":"o","workspace_id":null,
		"user_profile_id":null,"actor":null,"created_at":"2026-11-01T00:00:00Z","content_expires_at":"2026-12-01T00:00:00Z",
		"read_reason":{"type":"safeguards_review"},"details":{"type":"message","model":null,"content":null,
		"content_unavailable_reason":{"type":"stored_copy_unavailable"}}}`), &nullActor))
	assert.Nil(t, nullActor.Actor)
	var user admin.ComplianceItem
	require.NoError(t, json.Unmarshal([]byte(`{"id":"msg_3","type":"compliance_review_item","organization_id":"o","workspace_id":"wrkspc_1",
		"user_profile_id":"uprof_1","actor":{"type":"user_actor","user_id":"user_1","email_address":"a@example.com"},
		"created_at":"2026-11-01T00:00:00Z","content_expires_at":"2026-12-01T00:00:00Z","read_reason":{"type":"safeguards_review"},
		"details":{"type":"message","model":"m","content":null,"content_unavailable_reason":{"type":"not_captured"}}}`), &user))
	assert.Equal(t, "a@example.com", *user.Actor.(admin.ItemUserActor).EmailAddress)

	var n admin.ComplianceNotice
	require.NoError(t, json.Unmarshal([]byte(`{"id":"rvn_1","type":"compliance_review_notice","organization_id":"o","case_ids":[],
		"kind":{"type":"reminder"},"message":"m","respond_by":"2026-11-02T00:00:00Z","created_at":"2026-11-01T00:00:00Z"}`), &n))
	assert.Equal(t, "reminder", n.Kind.Type)
	assert.Equal(t, time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), *n.RespondBy)
}
