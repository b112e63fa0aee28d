package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// ComplianceReviewService reads the cases the vendor sends the
// organization about flagged messages, their items and the vendor's
// notices, and records the organization's response to a case
// (/v1/compliance/review/…, beta; an admin key with the compliance review
// scopes: read:compliance_review_cases for cases and notices,
// write:compliance_review_cases to respond, read:compliance_review_items
// for items). No beta header is sent unless the caller adds one. The SDK
// cannot see a key's scopes: a key without the scope is refused by the
// service (403).
type ComplianceReviewService struct{ c *Client }

// complianceReviewBase is the path every compliance review operation is
// under (one of transport.AdminPathPrefixes).
const complianceReviewBase = "/v1/compliance/review"

// reviewEP is the compliance review endpoint at suffix.
func reviewEP[T any](c *Client, suffix string) endpoint[T] {
	return endpoint[T]{c: c, path: complianceReviewBase + suffix, cred: adminbridge.AdminKey}
}

// A PolicyCategory is a usage policy category a case or verdict names;
// the service may send values this SDK version does not list.
type PolicyCategory string

// The policy categories.
const (
	PolicyCyber               PolicyCategory = "cyber"
	PolicyBio                 PolicyCategory = "bio"
	PolicyChem                PolicyCategory = "chem"
	PolicyRadNuc              PolicyCategory = "radnuc"
	PolicyCGW                 PolicyCategory = "cgw"
	PolicyMGW                 PolicyCategory = "mgw"
	PolicyIO                  PolicyCategory = "io"
	PolicyFraud               PolicyCategory = "fraud"
	PolicyViolentExtremism    PolicyCategory = "violent_extremism"
	PolicySurveillance        PolicyCategory = "surveillance"
	PolicyHumanExploitation   PolicyCategory = "human_exploitation"
	PolicySelfHarm            PolicyCategory = "self_harm"
	PolicyAdultContent        PolicyCategory = "adult_content"
	PolicyReasoningExtraction PolicyCategory = "reasoning_extraction"
	PolicyFrontierLLM         PolicyCategory = "frontier_llm"
	PolicyCompromisedKey      PolicyCategory = "compromised_key"
	PolicyBenign              PolicyCategory = "benign"
	PolicyOther               PolicyCategory = "other"
	PolicyUndetermined        PolicyCategory = "undetermined"
)

// violatedCategories are the categories a response may name: all but
// benign and undetermined.
var violatedCategories = []PolicyCategory{PolicyCyber, PolicyBio, PolicyChem, PolicyRadNuc, PolicyCGW, PolicyMGW, PolicyIO,
	PolicyFraud, PolicyViolentExtremism, PolicySurveillance, PolicyHumanExploitation, PolicySelfHarm, PolicyAdultContent,
	PolicyReasoningExtraction, PolicyFrontierLLM, PolicyCompromisedKey, PolicyOther}

// A Determination is a response's conclusion.
type Determination string

// The determinations.
const (
	DeterminationViolation   Determination = "violation"
	DeterminationNoViolation Determination = "no_violation"
)

// The reasons a case closed (CaseClosed.Reason.Type); the service may send
// others.
const (
	CaseClosedResponded     = "responded"
	CaseClosedWindowEnded   = "window_ended"
	CaseClosedEndedByVendor = "ended_by_vendor"
)

// The kinds of notice (ComplianceNotice.Kind.Type); the service may send
// others.
const (
	NoticeResponseRequested = "response_requested"
	NoticeWarning           = "warning"
	NoticeQuestion          = "question"
)

// ComplianceCase is a case the vendor sent for review (the wire type
// "compliance_review_case").
//
//mms:json type=compliance_review_case
type ComplianceCase struct {
	// ID identifies it ("rvc_…").
	ID string `json:"id"`
	// OrganizationID is the organization that sent the flagged messages.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the messages' workspace; nil when they have none (it
	// can be nil for the default workspace).
	WorkspaceID *string `json:"workspace_id"`
	// PolicyCategories are the categories the case is about (at least one).
	PolicyCategories []PolicyCategory `json:"policy_categories"`
	// EnforcementAction is the action the vendor took before sending the
	// case ({type}, open-ended); nil for none.
	EnforcementAction *TypeOnly `json:"enforcement_action"`
	// Status is [CaseOpen] or [CaseClosed]; a closed case stays closed.
	Status CaseStatus `json:"status"`
	// Transcripts are the flagged messages, without their contents (read
	// them with GetItem).
	Transcripts []CaseTranscript `json:"transcripts"`
	// CreatedAt is when it was sent; the response window starts here.
	CreatedAt time.Time `json:"created_at"`
	// UpdatedAt changes when it is sent, closed, or a notice about it is
	// sent.
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CaseTranscript is one flagged message of a case.
//
//mms:json
type CaseTranscript struct {
	// ItemID is the item to read with GetItem.
	ItemID string `json:"item_id"`
	// UserProfileID is the message's user profile; nil for none. Pass it
	// to GetItem.
	UserProfileID *string `json:"user_profile_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A CaseStatus is where a case stands: [CaseOpen], [CaseClosed] or
// [UnknownCaseStatus].
type CaseStatus interface {
	json.Marshaler
	isCaseStatus()
}

var caseStatusUnion = codec.NewUnion[CaseStatus]("CaseStatus", UnknownCaseStatus{}).
	Add("open", CaseOpen{}).
	Add("closed", CaseClosed{})

// CaseOpen is a case awaiting a response (the wire type "open").
type CaseOpen struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CaseClosed is a closed case (the wire type "closed").
type CaseClosed struct {
	// Reason is why: {type: CaseClosedResponded, CaseClosedWindowEnded,
	// CaseClosedEndedByVendor or one this SDK version does not list}.
	Reason TypeOnly `json:"reason"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownCaseStatus keeps a status this SDK version cannot name.
type UnknownCaseStatus struct {
	Type string
	Raw  json.RawMessage
}

// ComplianceItem is a flagged message with its request and response (the
// wire type "compliance_review_item").
//
//mms:json type=compliance_review_item
type ComplianceItem struct {
	// ID identifies it; for a message, the message's id ("msg_…").
	ID string `json:"id"`
	// OrganizationID is the organization that sent the message.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the message's workspace; nil for none.
	WorkspaceID *string `json:"workspace_id"`
	// UserProfileID is the message's user profile; nil when none was
	// recorded.
	UserProfileID *string `json:"user_profile_id"`
	// Actor is who sent it: [ItemUserActor], [ItemAPIActor],
	// [ItemServiceAccountActor] or [UnknownItemActor]; nil when unknown.
	Actor ItemActor `json:"actor"`
	// CreatedAt is when the call was received.
	CreatedAt time.Time `json:"created_at"`
	// ContentExpiresAt is when the content stops being readable (it may
	// become unreadable sooner): save what you need before it.
	ContentExpiresAt time.Time `json:"content_expires_at"`
	// ReadReason is why it is readable ({type: "safeguards_review"} or
	// one this SDK version does not list).
	ReadReason TypeOnly `json:"read_reason"`
	// Details is [MessageItemDetails] or [UnknownItemDetails].
	Details ItemDetails `json:"details"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// An ItemActor is who sent an item's message: [ItemUserActor], [ItemAPIActor],
// [ItemServiceAccountActor] or [UnknownItemActor].
type ItemActor interface {
	json.Marshaler
	isItemActor()
}

var itemActorUnion = codec.NewUnion[ItemActor]("ItemActor", UnknownItemActor{}).
	Add("user_actor", ItemUserActor{}).
	Add("api_actor", ItemAPIActor{}).
	Add("service_account_actor", ItemServiceAccountActor{})

// ItemUserActor is a member (the wire type "user_actor").
type ItemUserActor struct {
	// UserID is the member.
	UserID string `json:"user_id"`
	// EmailAddress is set only for current members the key can read.
	EmailAddress *string `json:"email_address,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ItemAPIActor is an API key (the wire type "api_actor").
type ItemAPIActor struct {
	// APIKeyID is the key.
	APIKeyID string `json:"api_key_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ItemServiceAccountActor is a service account (the wire type
// "service_account_actor").
type ItemServiceAccountActor struct {
	// ServiceAccountID is the service account.
	ServiceAccountID string `json:"service_account_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownItemActor keeps an actor this SDK version cannot name.
type UnknownItemActor struct {
	Type string
	Raw  json.RawMessage
}

// ItemDetails is what an item is: [MessageItemDetails] or
// [UnknownItemDetails].
type ItemDetails interface {
	json.Marshaler
	isItemDetails()
}

var itemDetailsUnion = codec.NewUnion[ItemDetails]("ItemDetails", UnknownItemDetails{}).
	Add("message", MessageItemDetails{})

// MessageItemDetails is a flagged message (the wire type "message").
// Exactly one of Content and ContentUnavailableReason is set.
type MessageItemDetails struct {
	// Model is the model the message was sent to; nil when unknown.
	Model *string `json:"model"`
	// Content is the call; nil when unavailable.
	Content *MessageItemContent `json:"content"`
	// ContentUnavailableReason is why Content is nil: {type:
	// "not_captured" | "stored_copy_unavailable"}; nil when it is set.
	ContentUnavailableReason *TypeOnly `json:"content_unavailable_reason"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownItemDetails keeps details this SDK version cannot name.
type UnknownItemDetails struct {
	Type string
	Raw  json.RawMessage
}

// MessageItemContent is a flagged call: its request and response, both
// without thinking blocks or unpublished fields.
//
//mms:json
type MessageItemContent struct {
	// Type is "create_message".
	Type string `json:"type"`
	// Request is the POST /v1/messages body, kept as sent (for the
	// vendor's own apps, system is a placeholder).
	Request json.RawMessage `json:"request"`
	// Response is the Message returned; nil when none was stored (the
	// client disconnected, for instance).
	Response *mms.Message `json:"response"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ComplianceNotice is the vendor's message about cases or the
// organization (the wire type "compliance_review_notice"); it does not
// change after sending.
//
//mms:json type=compliance_review_notice
type ComplianceNotice struct {
	// ID identifies it ("rvn_…").
	ID string `json:"id"`
	// OrganizationID is the organization it is sent to.
	OrganizationID string `json:"organization_id"`
	// CaseIDs are the cases it is about; empty when it is about the whole
	// organization.
	CaseIDs []string `json:"case_ids"`
	// Kind is {type: NoticeResponseRequested (respond to CaseIDs),
	// NoticeWarning, NoticeQuestion or one this SDK version does not
	// list}.
	Kind TypeOnly `json:"kind"`
	// Message is its text; it says how to answer when an answer is needed.
	Message string `json:"message"`
	// RespondBy is the requested answer time; nil for none. Missing it
	// changes nothing on a case, and a case's window can end before it.
	RespondBy *time.Time `json:"respond_by"`
	// CreatedAt is when it was sent.
	CreatedAt time.Time `json:"created_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TimeBounds bound a time field of a list; a zero time leaves its bound
// unset. GT and GTE are not used together, nor LT and LTE.
type TimeBounds struct {
	GT, GTE, LT, LTE time.Time
}

// validate reports exclusive and inclusive bounds on one side together,
// and a lower bound after the upper one.
func (b TimeBounds) validate(field string) error {
	if !b.GT.IsZero() && !b.GTE.IsZero() {
		return invalid(field+"[gt]", "cannot be used together with %s[gte]", field)
	}
	if !b.LT.IsZero() && !b.LTE.IsZero() {
		return invalid(field+"[lt]", "cannot be used together with %s[lte]", field)
	}
	lo, hi := b.GT, b.LT
	if lo.IsZero() {
		lo = b.GTE
	}
	if hi.IsZero() {
		hi = b.LTE
	}
	if !lo.IsZero() && !hi.IsZero() && lo.After(hi) {
		return invalid(field, "the lower bound %s is after the upper bound %s", lo.Format(time.RFC3339Nano), hi.Format(time.RFC3339Nano))
	}
	return nil
}

// add sets field[op] for each bound set.
func (b TimeBounds) add(q url.Values, field string) {
	for _, x := range []struct {
		op string
		t  time.Time
	}{{"gt", b.GT}, {"gte", b.GTE}, {"lt", b.LT}, {"lte", b.LTE}} {
		if !x.t.IsZero() {
			q.Set(field+"["+x.op+"]", x.t.UTC().Format(time.RFC3339Nano))
		}
	}
}

// The list orders.
const (
	OrderAsc  = "asc"
	OrderDesc = "desc"
)

// The case statuses a case list filters by (ComplianceCaseListParams.Status).
const (
	CaseStatusOpen   = "open"
	CaseStatusClosed = "closed"
)

// The orders a case list sorts by (ComplianceCaseListParams.OrderBy).
const (
	CaseOrderByCreatedAt = "created_at"
	CaseOrderByUpdatedAt = "updated_at"
)

// ComplianceCaseListParams are the parameters of
// [ComplianceReviewService.ListCases] (cursor scheme). A Page cursor works
// only with the filters and order of the request that produced it.
//
// To sync: keep the largest UpdatedAt seen; list with UpdatedAt.GTE set
// to it, OrderBy CaseOrderByUpdatedAt and Order OrderAsc; read every page,
// match cases by ID (the GTE bound also returns slightly older cases, so
// nothing is missed); store the new maximum after the last page.
type ComplianceCaseListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// Status is CaseStatusOpen or CaseStatusClosed; "" lists both.
	Status string
	// Order is OrderAsc or OrderDesc ("" is desc), by OrderBy then id.
	Order string
	// OrderBy is CaseOrderByCreatedAt ("" is it) or CaseOrderByUpdatedAt.
	OrderBy string
	// CreatedAt and UpdatedAt bound the cases' times.
	CreatedAt, UpdatedAt TimeBounds
	// UserProfileID lists the cases where any message has this user
	// profile.
	UserProfileID string
}

// Validate reports Limit outside 1–100, an unknown Status, Order or
// OrderBy, or contradictory time bounds.
func (p ComplianceCaseListParams) Validate() error {
	if err := validateLimit(p.Limit, 100); err != nil {
		return err
	}
	if err := oneOf("status", p.Status, CaseStatusOpen, CaseStatusClosed); err != nil {
		return err
	}
	if err := oneOf("order", p.Order, OrderAsc, OrderDesc); err != nil {
		return err
	}
	if err := oneOf("order_by", p.OrderBy, CaseOrderByCreatedAt, CaseOrderByUpdatedAt); err != nil {
		return err
	}
	if err := p.CreatedAt.validate("created_at"); err != nil {
		return err
	}
	return p.UpdatedAt.validate("updated_at")
}

func (p ComplianceCaseListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "status", p.Status)
	setString(a.query, "order", p.Order)
	setString(a.query, "order_by", p.OrderBy)
	p.CreatedAt.add(a.query, "created_at")
	p.UpdatedAt.add(a.query, "updated_at")
	setString(a.query, "user_profile_id", p.UserProfileID)
	return a
}

// ComplianceNoticeListParams are the parameters of
// [ComplianceReviewService.ListNotices] (cursor scheme, by created_at
// then id). A Page cursor works only with the filters and order of the
// request that produced it.
//
// To poll: keep the largest CreatedAt seen, list with CreatedAt.GTE set to
// it, read every page and match notices by ID.
type ComplianceNoticeListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// CaseID lists the notices about this case (none when the key cannot
	// read it).
	CaseID string
	// Order is OrderAsc or OrderDesc ("" is desc).
	Order string
	// CreatedAt bounds the notices' times.
	CreatedAt TimeBounds
}

// Validate reports Limit outside 1–100, an unknown Order or contradictory
// time bounds.
func (p ComplianceNoticeListParams) Validate() error {
	if err := validateLimit(p.Limit, 100); err != nil {
		return err
	}
	if err := oneOf("order", p.Order, OrderAsc, OrderDesc); err != nil {
		return err
	}
	return p.CreatedAt.validate("created_at")
}

func (p ComplianceNoticeListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "case_id", p.CaseID)
	setString(a.query, "order", p.Order)
	p.CreatedAt.add(a.query, "created_at")
	return a
}

// ComplianceRespondParams are the parameters of
// [ComplianceReviewService.RespondToCase].
//
//mms:json
type ComplianceRespondParams struct {
	// Determination is the conclusion on the whole case. Required.
	Determination Determination `json:"determination"`
	// PolicyCategories are the violated categories: 1–4 distinct values
	// with DeterminationViolation (not PolicyBenign or
	// PolicyUndetermined), none with DeterminationNoViolation. They need
	// not match the case's own.
	PolicyCategories []PolicyCategory `json:"policy_categories,omitzero"`
	// Verdicts are per-message conclusions; they need not cover every
	// message, and name each item at most once.
	Verdicts []CaseVerdict `json:"verdicts,omitzero"`
}

// CaseVerdict is the conclusion on one message of a case.
//
//mms:json request
type CaseVerdict struct {
	// ItemID is the message's item. Required.
	ItemID string `json:"item_id"`
	// Determination is the conclusion on it. Required.
	Determination Determination `json:"determination"`
	// PolicyCategory is the violated category: optional with
	// DeterminationViolation, empty with DeterminationNoViolation.
	PolicyCategory PolicyCategory `json:"policy_category,omitzero"`
}

// Validate reports a missing or unknown determination, categories that
// do not fit it (1–4 with violation, none with no_violation; benign,
// undetermined, unknown or repeated values), and verdicts without an item
// or determination, naming an item twice, or with a category that does
// not fit theirs.
func (p ComplianceRespondParams) Validate() error {
	if err := required("determination", string(p.Determination)); err != nil {
		return err
	}
	if err := oneOf("determination", p.Determination, DeterminationViolation, DeterminationNoViolation); err != nil {
		return err
	}
	switch n := len(p.PolicyCategories); {
	case p.Determination == DeterminationNoViolation && n > 0:
		return invalid("policy_categories", "must be empty with determination no_violation, got %d", n)
	case p.Determination == DeterminationViolation && (n < 1 || n > 4):
		return invalid("policy_categories", "must hold 1 to 4 categories with determination violation, got %d", n)
	}
	if err := eachOneOf("policy_categories", p.PolicyCategories, violatedCategories...); err != nil {
		return err
	}
	for i, c := range p.PolicyCategories {
		if slices.Contains(p.PolicyCategories[:i], c) {
			return invalid(fmt.Sprintf("policy_categories[%d]", i), "repeats %q", c)
		}
	}
	for i, v := range p.Verdicts {
		f := fmt.Sprintf("verdicts[%d]", i)
		if err := required(f+".item_id", v.ItemID); err != nil {
			return err
		}
		if slices.ContainsFunc(p.Verdicts[:i], func(o CaseVerdict) bool { return o.ItemID == v.ItemID }) {
			return invalid(f+".item_id", "repeats %q: name each item at most once", v.ItemID)
		}
		if err := required(f+".determination", string(v.Determination)); err != nil {
			return err
		}
		if err := oneOf(f+".determination", v.Determination, DeterminationViolation, DeterminationNoViolation); err != nil {
			return err
		}
		if v.Determination == DeterminationNoViolation && v.PolicyCategory != "" {
			return invalid(f+".policy_category", "must be empty with determination no_violation")
		}
		if err := oneOf(f+".policy_category", v.PolicyCategory, violatedCategories...); err != nil {
			return err
		}
	}
	return nil
}

// ComplianceItemGetParams are the parameters of
// [ComplianceReviewService.GetItem].
type ComplianceItemGetParams struct {
	// UserProfileID is the user profile the message was recorded with
	// (CaseTranscript.UserProfileID), sent as the vendor-user-profile-id
	// header; leave it empty for a message without one.
	UserProfileID string
}

// Validate reports a user profile id holding a space or a control
// character, which cannot be sent as a header value.
func (p ComplianceItemGetParams) Validate() error {
	if i := strings.IndexFunc(p.UserProfileID, func(r rune) bool { return r <= ' ' || r == 0x7f }); i >= 0 {
		return invalid("user_profile_id", "must not hold spaces or control characters (byte %d)", i)
	}
	return nil
}

// GetCase retrieves a case (GET /v1/compliance/review/cases/{case_id};
// scope read:compliance_review_cases). A case the key cannot reach is the
// same 404 as a missing one.
func (s *ComplianceReviewService) GetCase(ctx context.Context, caseID string, opts ...option.RequestOption) (*ComplianceCase, error) {
	return reviewEP[ComplianceCase](s.c, "/cases").id("case_id", caseID).get(ctx, opts)
}

// ListCases iterates over the cases of every organization the key can
// reach, newest first unless p orders otherwise (cursor scheme; scope
// read:compliance_review_cases).
func (s *ComplianceReviewService) ListCases(ctx context.Context, p ComplianceCaseListParams, opts ...option.RequestOption) iter.Seq2[ComplianceCase, error] {
	return reviewEP[ComplianceCase](s.c, "/cases").list(ctx, adminbridge.Cursor, p, opts)
}

// RespondToCase records the organization's response, which closes the
// case for good (POST /v1/compliance/review/cases/{case_id}/respond;
// scope write:compliance_review_cases). Only the first response counts:
// the same response again answers the case unchanged (so it is retried as
// idempotent); a different one, or a case closed without a response, is a
// 400 whose error code is "case_closed". A case the end customer reviews
// instead is a 403 "case_reviewed_by_end_customer".
func (s *ComplianceReviewService) RespondToCase(ctx context.Context, caseID string, p ComplianceRespondParams, opts ...option.RequestOption) (*ComplianceCase, error) {
	return reviewEP[ComplianceCase](s.c, "/cases").id("case_id", caseID).action(ctx, "/respond", p, transport.Idempotent, opts)
}

// ListNotices iterates over the notices the key can read (it reads every
// case a notice names), newest first unless p orders otherwise (cursor
// scheme; scope read:compliance_review_cases).
func (s *ComplianceReviewService) ListNotices(ctx context.Context, p ComplianceNoticeListParams, opts ...option.RequestOption) iter.Seq2[ComplianceNotice, error] {
	return reviewEP[ComplianceNotice](s.c, "/notices").list(ctx, adminbridge.Cursor, p, opts)
}

// GetItem retrieves a flagged message with its request and response (GET
// /v1/compliance/review/items/{item_id}; scope
// read:compliance_review_items, read:compliance_user_data or
// read:org_audit, and read:compliance_review_items for an organization
// without a parent). Read ContentExpiresAt. An item of another
// organization, or of the end customer's user profile or workspace, is a
// 404; a customer key or bucket refusing the read is a 400 whose error
// code is cmek_key_disabled, storage_bucket_unreadable or
// customer_storage_refusal_unattributed.
func (s *ComplianceReviewService) GetItem(ctx context.Context, itemID string, p ComplianceItemGetParams, opts ...option.RequestOption) (*ComplianceItem, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.UserProfileID != "" {
		opts = append([]option.RequestOption{option.WithHeader(wire.HeaderUserProfileID, p.UserProfileID)}, opts...)
	}
	return reviewEP[ComplianceItem](s.c, "/items").id("item_id", itemID).get(ctx, opts)
}
