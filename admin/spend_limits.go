package admin

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// SpendLimitsService lists effective spend limits and (beta extras)
// retrieves, lists, sets and deletes spend limits
// (/v1/organizations/spend_limits…; admin key).
type SpendLimitsService struct{ c *Client }

// The spend periods.
const (
	PeriodDaily   = "daily"
	PeriodWeekly  = "weekly"
	PeriodMonthly = "monthly"
)

var periods = []string{PeriodDaily, PeriodWeekly, PeriodMonthly}

// A SpendScope is where a spend limit applies or was inherited from:
// [UserScope], [SeatTierScope], [RBACGroupScope],
// [OrganizationServiceScope], [OrganizationScope], [WorkspaceScope],
// [UsageTierScope] or [UnknownSpendScope].
type SpendScope interface {
	json.Marshaler
	isSpendScope()
}

var spendScopeUnion = codec.NewUnion[SpendScope]("SpendScope", UnknownSpendScope{}).
	Add("user", UserScope{}).
	Add("seat_tier", SeatTierScope{}).
	Add("rbac_group", RBACGroupScope{}).
	Add("organization_service", OrganizationServiceScope{}).
	Add("organization", OrganizationScope{}).
	Add("workspace", WorkspaceScope{}).
	Add("usage_tier", UsageTierScope{})

// UserScope is one member (the wire type "user").
type UserScope struct {
	// UserID is the member.
	UserID string `json:"user_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SeatTierScope is a seat tier (the wire type "seat_tier").
type SeatTierScope struct {
	// SeatTier names the tier.
	SeatTier string `json:"seat_tier"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RBACGroupScope is an RBAC group (the wire type "rbac_group").
type RBACGroupScope struct {
	// RBACGroupID is the group.
	RBACGroupID string `json:"rbac_group_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OrganizationServiceScope is an organization service (the wire type
// "organization_service").
type OrganizationServiceScope struct {
	// Service names it.
	Service string `json:"service"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OrganizationScope is the whole organization (the wire type
// "organization").
type OrganizationScope struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkspaceScope is a workspace of a Console organization (the wire type
// "workspace").
type WorkspaceScope struct {
	// WorkspaceID is the workspace.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UsageTierScope is a Console organization's read-only tier cap (the wire
// type "usage_tier").
type UsageTierScope struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSpendScope keeps a scope this SDK version cannot name.
type UnknownSpendScope struct {
	Type string
	Raw  json.RawMessage
}

// A SpendActor is whose spend a row counts: [SpendUserActor],
// [ScopedAPIKeyActor] or [UnknownSpendActor].
type SpendActor interface {
	json.Marshaler
	isSpendActor()
}

var spendActorUnion = codec.NewUnion[SpendActor]("SpendActor", UnknownSpendActor{}).
	Add("user_actor", SpendUserActor{}).
	Add("scoped_api_key_actor", ScopedAPIKeyActor{})

// SpendUserActor is a member (the wire type "user_actor").
type SpendUserActor struct {
	// UserID is the member; Name and EmailAddress when known.
	UserID       string  `json:"user_id"`
	Name         *string `json:"name,omitzero"`
	EmailAddress *string `json:"email_address,omitzero"`
	// Deleted marks a member who left.
	Deleted bool `json:"deleted"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ScopedAPIKeyActor is a scoped API key (the wire type
// "scoped_api_key_actor").
type ScopedAPIKeyActor struct {
	// ScopedAPIKeyID is the key.
	ScopedAPIKeyID string `json:"scoped_api_key_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSpendActor keeps an actor this SDK version cannot name.
type UnknownSpendActor struct {
	Type string
	Raw  json.RawMessage
}

// SpendSummary is one (member, period) row with its resolved limit.
//
//mms:json
type SpendSummary struct {
	// Actor is whose spend it is.
	Actor SpendActor `json:"actor"`
	// SpendLimitID is the limit's id; nil for none.
	SpendLimitID *string `json:"spend_limit_id"`
	// Period is daily, weekly or monthly.
	Period string `json:"period"`
	// Amount is the limit in minor units; nil: no limit for the period.
	Amount *Decimal `json:"amount"`
	// Currency is the ISO 4217 code.
	Currency string `json:"currency"`
	// PeriodToDateSpend is the spend so far in minor units (up to 3
	// fractional digits; "0" when temporarily unavailable).
	PeriodToDateSpend Decimal `json:"period_to_date_spend"`
	// Scope is where the limit applies; Source where it was inherited from.
	Scope  SpendScope `json:"scope"`
	Source SpendScope `json:"source"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// EffectiveSpendLimitParams are the parameters of
// [SpendLimitsService.Effective] (cursor scheme).
type EffectiveSpendLimitParams struct {
	// Limit is members per page, 1–1000 (default 20); a member's rows never
	// split, so a page may hold more rows.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// Periods lists only these periods.
	Periods []string
	// UserIDs lists only these members (at most 100).
	UserIDs []string
}

// Validate reports Limit outside 1–1000, an unknown period or more than 100
// user ids.
func (p EffectiveSpendLimitParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	if err := eachOneOf("period", p.Periods, periods...); err != nil {
		return err
	}
	return maxItems("user_ids", len(p.UserIDs), 100)
}

func (p EffectiveSpendLimitParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	addArray(a.query, "period", p.Periods)
	addArray(a.query, "user_ids", p.UserIDs)
	return a
}

// Effective iterates over the effective limits, one row per (member,
// period) (GET /v1/organizations/spend_limits/effective).
func (s *SpendLimitsService) Effective(ctx context.Context, p EffectiveSpendLimitParams, opts ...option.RequestOption) iter.Seq2[SpendSummary, error] {
	return ep[SpendSummary](s.c, adminbridge.AdminKey, "/spend_limits/effective").list(ctx, adminbridge.Cursor, p, opts)
}

// SpendLimit is a spend limit (the wire type "spend_limit").
//
//mms:json type=spend_limit
type SpendLimit struct {
	// ID identifies the limit ("spl_…").
	ID string `json:"id"`
	// Scope is where it applies.
	Scope SpendScope `json:"scope"`
	// Period is daily, weekly or monthly.
	Period string `json:"period"`
	// Amount is the cap in minor units; nil: no numeric cap.
	Amount *Decimal `json:"amount"`
	// Currency is the ISO 4217 code.
	Currency string `json:"currency"`
	// IsEnabled is false when extra usage is off for an organization limit.
	IsEnabled bool `json:"is_enabled"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpendLimitIncreaseRequestsService reads, approves and denies members'
// requests for more spend (/v1/organizations/spend_limit_increase_requests;
// admin key).
type SpendLimitIncreaseRequestsService struct{ c *Client }

// SpendLimitIncreaseRequest is a request's record (the wire type
// "spend_limit_increase_request").
//
//mms:json type=spend_limit_increase_request
type SpendLimitIncreaseRequest struct {
	// ID identifies the request.
	ID string `json:"id"`
	// Actor is who asked.
	Actor SpendActor `json:"actor"`
	// Period is the period the member was blocked on.
	Period string `json:"period"`
	// Status is pending, approved or denied.
	Status string `json:"status"`
	// CreatedAt and ResolvedAt (nil while pending) are its times.
	CreatedAt  time.Time  `json:"created_at"`
	ResolvedAt *time.Time `json:"resolved_at"`
	// ResolvedBy is who resolved it; nil while pending.
	ResolvedBy SpendActor `json:"resolved_by"`
	// SpendSummary is the live summary while pending; nil otherwise.
	SpendSummary *SpendSummary `json:"spend_summary"`
	// SpendLimit is the limit an approval wrote (Approve's answer only).
	SpendLimit *SpendLimit `json:"spend_limit,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// IncreaseRequestListParams are the parameters of
// [SpendLimitIncreaseRequestsService.List] (cursor scheme).
type IncreaseRequestListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// Statuses lists only pending, approved or denied requests.
	Statuses []string
	// ActorIDs lists only these members' requests ("user_…").
	ActorIDs []string
}

// Validate reports Limit outside 1–1000 or an unknown status.
func (p IncreaseRequestListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	return eachOneOf("status", p.Statuses, "pending", "approved", "denied")
}

func (p IncreaseRequestListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	addArray(a.query, "status", p.Statuses)
	addArray(a.query, "actor_ids", p.ActorIDs)
	return a
}

// IncreaseApproveParams are the parameters of
// [SpendLimitIncreaseRequestsService.Approve].
//
//mms:json
type IncreaseApproveParams struct {
	// Amount is the new limit in minor units (an integer string). Required.
	Amount Decimal `json:"amount"`
	// Period defaults to the period the member was blocked on.
	Period string `json:"period,omitzero"`
	// SuppressNotification skips the email to the requester.
	SuppressNotification bool `json:"suppress_notification,omitzero"`
}

// Validate reports an amount that is not a non-negative integer, or an
// unknown period.
func (p IncreaseApproveParams) Validate() error {
	if err := p.Amount.validateMinorUnits("amount"); err != nil {
		return err
	}
	return oneOf("period", p.Period, periods...)
}

// IncreaseDenyParams are the parameters of
// [SpendLimitIncreaseRequestsService.Deny].
//
//mms:json
type IncreaseDenyParams struct {
	// SuppressNotification skips the email to the requester.
	SuppressNotification bool `json:"suppress_notification,omitzero"`
}

// Validate has no client-side rule and returns nil.
func (p IncreaseDenyParams) Validate() error { return nil }

func (s *SpendLimitIncreaseRequestsService) all() endpoint[SpendLimitIncreaseRequest] {
	return ep[SpendLimitIncreaseRequest](s.c, adminbridge.AdminKey, "/spend_limit_increase_requests")
}

// Get retrieves a request.
func (s *SpendLimitIncreaseRequestsService) Get(ctx context.Context, requestID string, opts ...option.RequestOption) (*SpendLimitIncreaseRequest, error) {
	return s.all().id("spend_limit_increase_request_id", requestID).get(ctx, opts)
}

// List iterates over the requests, most recent first (cursor scheme).
func (s *SpendLimitIncreaseRequestsService) List(ctx context.Context, p IncreaseRequestListParams, opts ...option.RequestOption) iter.Seq2[SpendLimitIncreaseRequest, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Approve approves a request, writing a per-user limit at the amount; the
// answer carries SpendLimit. Idempotent: the same amount written twice is
// one limit.
func (s *SpendLimitIncreaseRequestsService) Approve(ctx context.Context, requestID string, p IncreaseApproveParams, opts ...option.RequestOption) (*SpendLimitIncreaseRequest, error) {
	return s.all().id("spend_limit_increase_request_id", requestID).action(ctx, "/approve", p, transport.Idempotent, opts)
}

// Deny denies a request; idempotent on a denied request.
func (s *SpendLimitIncreaseRequestsService) Deny(ctx context.Context, requestID string, p IncreaseDenyParams, opts ...option.RequestOption) (*SpendLimitIncreaseRequest, error) {
	return s.all().id("spend_limit_increase_request_id", requestID).action(ctx, "/deny", p, transport.Idempotent, opts)
}

// SpendLimitSetParams are the parameters of [SpendLimitsService.Set]: an
// upsert on (scope, period).
//
//mms:json
type SpendLimitSetParams struct {
	// Amount is the cap in minor units (an integer string). Required.
	Amount Decimal `json:"amount"`
	// Scope is UserScope (Enterprise), OrganizationScope or WorkspaceScope
	// (Console). Required.
	Scope SpendScope `json:"scope"`
	// Period is daily, weekly or monthly.
	Period string `json:"period,omitzero"`
}

// Validate reports an amount that is not a non-negative integer, a missing
// scope or one that cannot be set (only user, organization and workspace),
// a user or workspace scope without its id, or an unknown period.
func (p SpendLimitSetParams) Validate() error {
	if err := p.Amount.validateMinorUnits("amount"); err != nil {
		return err
	}
	switch sc := p.Scope.(type) {
	case nil:
		return invalid("scope", "is required")
	case UserScope:
		if err := required("scope.user_id", sc.UserID); err != nil {
			return err
		}
	case WorkspaceScope:
		if err := required("scope.workspace_id", sc.WorkspaceID); err != nil {
			return err
		}
	case OrganizationScope:
	default:
		return invalid("scope", "must be a user, organization or workspace scope")
	}
	return oneOf("period", p.Period, periods...)
}

// SpendLimitListParams are the parameters of [SpendLimitsService.List]
// (cursor scheme; beta spend-limit-reads-2026-09-26, sent by the SDK).
type SpendLimitListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// ScopeTypes lists only limits of these scope types.
	ScopeTypes []string
	// WorkspaceID lists only the workspace's limits.
	WorkspaceID string
}

// Validate reports Limit outside 1–1000 or an unknown scope type.
func (p SpendLimitListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	return eachOneOf("scope_type", p.ScopeTypes, "user", "seat_tier", "rbac_group", "organization_service", "organization", "workspace", "usage_tier")
}

func (p SpendLimitListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	addArray(a.query, "scope_type", p.ScopeTypes)
	setString(a.query, "workspace_id", p.WorkspaceID)
	return a
}

// SpendLimitDeleted is the answer to [SpendLimitsService.Delete].
//
//mms:json type=spend_limit_deleted
type SpendLimitDeleted struct {
	// ID is the deleted limit's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s *SpendLimitsService) all() endpoint[SpendLimit] {
	return ep[SpendLimit](s.c, adminbridge.AdminKey, "/spend_limits")
}

// Get retrieves a spend limit (beta extra).
func (s *SpendLimitsService) Get(ctx context.Context, spendLimitID string, opts ...option.RequestOption) (*SpendLimit, error) {
	return s.all().id("spend_limit_id", spendLimitID).get(ctx, opts)
}

// List iterates over the spend limits (beta spend-limit-reads-2026-09-26).
func (s *SpendLimitsService) List(ctx context.Context, p SpendLimitListParams, opts ...option.RequestOption) iter.Seq2[SpendLimit, error] {
	return s.all().beta(wire.BetaSpendLimitReads).list(ctx, adminbridge.Cursor, p, opts)
}

// Set writes the limit of a (scope, period), replacing one there (beta
// extra): an upsert, so idempotent.
func (s *SpendLimitsService) Set(ctx context.Context, p SpendLimitSetParams, opts ...option.RequestOption) (*SpendLimit, error) {
	return s.all().update(ctx, p, opts)
}

// Delete removes a per-user override (Enterprise) or an organization or
// workspace limit (Console); never the usage tier (beta extra).
func (s *SpendLimitsService) Delete(ctx context.Context, spendLimitID string, opts ...option.RequestOption) (*SpendLimitDeleted, error) {
	return as[SpendLimitDeleted](s.all().id("spend_limit_id", spendLimitID)).delete(ctx, opts)
}
