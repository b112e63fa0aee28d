package admin

import (
	"context"
	"encoding/json"
	"iter"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// RateLimitsService lists the organization's rate limits
// (/v1/organizations/rate_limits; admin key). Reach it as c.RateLimits.
type RateLimitsService struct{ c *Client }

// RateLimitGroupType is the kind of a rate-limit group.
type RateLimitGroupType string

// The rate-limit group types.
const (
	GroupModel      RateLimitGroupType = "model_group"
	GroupBatch      RateLimitGroupType = "batch"
	GroupTokenCount RateLimitGroupType = "token_count"
	GroupFiles      RateLimitGroupType = "files"
	GroupSkills     RateLimitGroupType = "skills"
	GroupWebSearch  RateLimitGroupType = "web_search"
)

var groupTypes = []RateLimitGroupType{GroupModel, GroupBatch, GroupTokenCount, GroupFiles, GroupSkills, GroupWebSearch}

// A RateLimitGroup is what a rate limit applies to: [ModelGroup],
// [BatchGroup], [TokenCountGroup], [FilesGroup], [SkillsGroup],
// [WebSearchGroup] or [UnknownRateLimitGroup]. Its ID ("rlg_…") is the
// same in every organization.
type RateLimitGroup interface {
	json.Marshaler
	isRateLimitGroup()
}

var rateLimitGroupUnion = codec.NewUnion[RateLimitGroup]("RateLimitGroup", UnknownRateLimitGroup{}).
	Add("model_group", ModelGroup{}).
	Add("batch", BatchGroup{}).
	Add("token_count", TokenCountGroup{}).
	Add("files", FilesGroup{}).
	Add("skills", SkillsGroup{}).
	Add("web_search", WebSearchGroup{})

// ModelGroup is a group of models sharing limits (the wire type
// "model_group").
type ModelGroup struct {
	// ID is the group's id.
	ID string `json:"id"`
	// DisplayName is for display only and may change.
	DisplayName string `json:"display_name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BatchGroup is the Message Batches limits (the wire type "batch").
type BatchGroup struct {
	// ID is the group's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TokenCountGroup is the token-counting limits (the wire type
// "token_count").
type TokenCountGroup struct {
	// ID is the group's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FilesGroup is the Files API limits (the wire type "files").
type FilesGroup struct {
	// ID is the group's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SkillsGroup is the Skills API limits (the wire type "skills").
type SkillsGroup struct {
	// ID is the group's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebSearchGroup is the web search limits (the wire type "web_search").
type WebSearchGroup struct {
	// ID is the group's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownRateLimitGroup keeps a group this SDK version cannot name.
type UnknownRateLimitGroup struct {
	Type string
	Raw  json.RawMessage
}

// The limiter types a workspace override may set.
const (
	LimitRequestsPerMinute              = "requests_per_minute"
	LimitTokensPerMinute                = "tokens_per_minute"
	LimitInputTokensPerMinute           = "input_tokens_per_minute"
	LimitInputTokensPerMinuteCacheAware = "input_tokens_per_minute_cache_aware"
	LimitOutputTokensPerMinute          = "output_tokens_per_minute"
	LimitTokensPerDay                   = "tokens_per_day"
	LimitToolUsesPerSecond              = "tool_uses_per_second"
	LimitFastITPMCA                     = "fast_itpmca"
	LimitFastOTPM                       = "fast_otpm"
)

var limiterTypes = []string{LimitRequestsPerMinute, LimitTokensPerMinute, LimitInputTokensPerMinute, LimitInputTokensPerMinuteCacheAware,
	LimitOutputTokensPerMinute, LimitTokensPerDay, LimitToolUsesPerSecond, LimitFastITPMCA, LimitFastOTPM}

// RateLimit is one organization rate-limit entry (the wire type
// "rate_limit").
//
//mms:json type=rate_limit
type RateLimit struct {
	// ID is the entry's id, the rate_limit_id of workspace overrides.
	ID string `json:"id"`
	// Group is what the limits apply to.
	Group RateLimitGroup `json:"group"`
	// Limits are the limiter values.
	Limits []Limit `json:"limits"`
	// Models are the group's models (with aliases); nil unless a model group.
	Models []string `json:"models"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Limit is one limiter's value.
//
//mms:json
type Limit struct {
	// Type is the limiter type (requests_per_minute, …).
	Type string `json:"type"`
	// Value is the limit.
	Value int64 `json:"value"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RateLimitListParams are the parameters of [RateLimitsService.List]
// (cursor scheme).
type RateLimitListParams struct {
	// Limit is the page size, 1–1000; 0 returns everything in one page.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// GroupType lists only groups of this type.
	GroupType RateLimitGroupType
	// Model lists only the model's group (full name or alias).
	Model string
}

// Validate reports Limit outside 1–1000 or an unknown GroupType.
func (p RateLimitListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	return oneOf("group_type", p.GroupType, groupTypes...)
}

func (p RateLimitListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "group_type", p.GroupType)
	setString(a.query, "model", p.Model)
	return a
}

// List iterates over the organization's rate limits (GET
// /v1/organizations/rate_limits, cursor scheme).
func (s *RateLimitsService) List(ctx context.Context, p RateLimitListParams, opts ...option.RequestOption) iter.Seq2[RateLimit, error] {
	return ep[RateLimit](s.c, adminbridge.AdminKey, "/rate_limits").list(ctx, adminbridge.Cursor, p, opts)
}

// WorkspaceRateLimitsService lists and sets a workspace's rate-limit
// overrides (/v1/organizations/workspaces/{workspace_id}/rate_limits;
// admin key).
type WorkspaceRateLimitsService struct{ c *Client }

// WorkspaceRateLimit is a workspace's view of one rate-limit group (the
// wire type "workspace_rate_limit").
//
//mms:json type=workspace_rate_limit
type WorkspaceRateLimit struct {
	// WorkspaceID is the workspace.
	WorkspaceID string `json:"workspace_id"`
	// RateLimitID is the organization entry's id.
	RateLimitID string `json:"rate_limit_id"`
	// Group is what the limits apply to.
	Group RateLimitGroup `json:"group"`
	// Models are the models the workspace can reach; nil unless a model group.
	Models []string `json:"models"`
	// Limits are the workspace's limiter values.
	Limits []WorkspaceLimit `json:"limits"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkspaceLimit is one limiter of a workspace.
//
//mms:json
type WorkspaceLimit struct {
	// Type is the limiter type.
	Type string `json:"type"`
	// Value is the workspace's limit.
	Value int64 `json:"value"`
	// OrgLimit is the organization's limit; nil when it has none.
	OrgLimit *int64 `json:"org_limit"`
	// Source says where Value comes from: "workspace" (an override) or
	// "organization" (inherited; only with IncludeInherited).
	Source TypeOnly `json:"source"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TypeOnly is an object the wire distinguishes by its type alone ({type}).
//
//mms:json
type TypeOnly struct {
	// Type is the object's type.
	Type string `json:"type"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkspaceRateLimitListParams are the parameters of
// [WorkspaceRateLimitsService.List] (cursor scheme).
type WorkspaceRateLimitListParams struct {
	// Limit is the page size, 1–1000; 0 returns everything in one page.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// GroupType lists only groups of this type.
	GroupType RateLimitGroupType
	// IncludeInherited lists every group with organization limits, not
	// only the workspace's overrides.
	IncludeInherited bool
}

// Validate reports Limit outside 1–1000 or an unknown GroupType.
func (p WorkspaceRateLimitListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	return oneOf("group_type", p.GroupType, groupTypes...)
}

func (p WorkspaceRateLimitListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "group_type", p.GroupType)
	setBool(a.query, "include_inherited", p.IncludeInherited)
	return a
}

// LimitOverride sets or clears one limiter of a workspace.
//
//mms:json
type LimitOverride struct {
	// Type is the limiter type (Limit… constants). Required.
	Type string `json:"type"`
	// Value is the override; nil clears it (sent as null).
	Value *int64 `json:"value"`
}

// WorkspaceRateLimitUpdateParams are the parameters of
// [WorkspaceRateLimitsService.Update]: only the named limiters change.
//
//mms:json
type WorkspaceRateLimitUpdateParams struct {
	// Limits are the overrides to set or clear (at least one).
	Limits []LimitOverride `json:"limits"`
}

// Validate reports no limits, an unknown or repeated limiter type, or a
// negative value.
func (p WorkspaceRateLimitUpdateParams) Validate() error {
	if len(p.Limits) == 0 {
		return invalid("limits", "must name at least one limiter")
	}
	seen := map[string]bool{}
	for i, l := range p.Limits {
		f := "limits[" + itoa(i) + "]"
		if err := required(f+".type", l.Type); err != nil {
			return err
		}
		if err := oneOf(f+".type", l.Type, limiterTypes...); err != nil {
			return err
		}
		if seen[l.Type] {
			return invalid(f+".type", "names %q twice", l.Type)
		}
		seen[l.Type] = true
		if l.Value != nil && *l.Value < 0 {
			return invalid(f+".value", "must not be negative, got %d", *l.Value)
		}
	}
	return nil
}

func (s *WorkspaceRateLimitsService) all(workspaceID string) endpoint[WorkspaceRateLimit] {
	return ep[WorkspaceRateLimit](s.c, adminbridge.AdminKey, "/workspaces").id("workspace_id", workspaceID).sub("/rate_limits")
}

// List iterates over the workspace's rate limits (GET …/rate_limits,
// cursor scheme).
func (s *WorkspaceRateLimitsService) List(ctx context.Context, workspaceID string, p WorkspaceRateLimitListParams, opts ...option.RequestOption) iter.Seq2[WorkspaceRateLimit, error] {
	return s.all(workspaceID).list(ctx, adminbridge.Cursor, p, opts)
}

// Update sets or clears overrides of one group (POST
// …/rate_limits/{rate_limit_id}) and returns the group after the change.
func (s *WorkspaceRateLimitsService) Update(ctx context.Context, workspaceID, rateLimitID string, p WorkspaceRateLimitUpdateParams, opts ...option.RequestOption) (*WorkspaceRateLimit, error) {
	return s.all(workspaceID).id("rate_limit_id", rateLimitID).update(ctx, p, opts)
}
