package mms

import (
	"context"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"net/http"
	"time"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// MessagesService sends messages to a model: POST /v1/messages and
// POST /v1/messages/count_tokens.
type MessagesService struct {
	// Batches sends many message requests at once, processed
	// asynchronously (/v1/messages/batches).
	Batches *BatchesService

	client *Client
}

// Create sends a conversation and returns the model's reply
// (POST /v1/messages). The parameters are validated first; a
// *ValidationError means nothing was sent. Parameters marked beta add their
// beta names to the request.
//
// Unless the caller set option.WithRequestTimeout, each attempt may take up
// to 60 min × MaxTokens / 128,000, at least 10 and at most 60 minutes: long
// generations are allowed, never refused locally (stream them to see
// progress).
func (s *MessagesService) Create(ctx context.Context, p MessageCreateParams, opts ...option.RequestOption) (*Message, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cl := s.client.newCall(opts)
	if cl.err != nil {
		return nil, cl.err
	}
	if err := checkUserProfile(&p, cl.cfg); err != nil {
		return nil, err
	}
	if err := p.checkVersion(callVersion(cl.cfg), ""); err != nil {
		return nil, err
	}
	body, err := encodeMessageBody(&p, "")
	if err != nil {
		return nil, fmt.Errorf("mms: encoding the message request: %w", err)
	}
	ctx, op := startOp(ctx, cl.cfg.Observer, chatOp(observe.Chat, "Messages.Create", &p, false))
	var msg Message
	_, err = cl.send(ctx, &request{
		method: http.MethodPost, path: "/v1/messages", raw: body, betas: p.betas(),
		out: &msg, timeout: nonStreamingTimeout(p.MaxTokens), model: p.Model,
		retry: p.retryClass(), // Stateless unless threaded
	})
	if err != nil {
		endOp(op, err)
		return nil, err
	}
	if op != nil {
		op.Result(messageResult(&msg))
		op.End(nil)
	}
	return &msg, nil
}

// checkUserProfile refuses a body user_profile_id that differs from the
// vendor-user-profile-id header the call resolves to (set with
// option.WithUserProfileID or option.WithHeader, on the client or the
// call): the service would answer 400. cfg is the call's configuration.
func checkUserProfile(p *MessageCreateParams, cfg *config.Config) error {
	if err := checkBillingPolicy(p.BillingPolicy, cfg); err != nil {
		return err
	}
	if p.UserProfileID == "" {
		return nil
	}
	header := profileHeader(cfg)
	if header != "" && header != p.UserProfileID {
		return invalid("user_profile_id", "is %q but the vendor-user-profile-id header (option.WithUserProfileID or WithHeader) is %q: name one profile, or the same in both",
			p.UserProfileID, header)
	}
	return nil
}

// profileHeader is the vendor-user-profile-id the call sends ("" for none).
func profileHeader(cfg *config.Config) string {
	if cfg.UserProfileID != "" {
		return cfg.UserProfileID
	}
	return cfg.Header.Get(wire.HeaderUserProfileID)
}

// checkBillingPolicy refuses bill_to user_profile on a call without the
// vendor-user-profile-id header: the service answers 400
// user_profile_required.
func checkBillingPolicy(bp *BillingPolicy, cfg *config.Config) error {
	if bp != nil && bp.BillTo == BillToUserProfile && profileHeader(cfg) == "" {
		return invalid("billing_policy.bill_to", "is %q, which bills the customer behind the vendor-user-profile-id header, but the call sends none: add option.WithUserProfileID",
			BillToUserProfile)
	}
	return nil
}

// CountTokens counts the input tokens a request would use
// (POST /v1/messages/count_tokens). The parameters are validated first.
func (s *MessagesService) CountTokens(ctx context.Context, p MessageCountTokensParams, opts ...option.RequestOption) (*MessageTokensCount, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cl := s.client.newCall(opts)
	if cl.err == nil {
		if err := p.checkVersion(callVersion(cl.cfg)); err != nil {
			return nil, err
		}
		if err := checkBillingPolicy(p.BillingPolicy, cl.cfg); err != nil {
			return nil, err
		}
	}
	var op observe.Operation
	if cl.err == nil {
		ctx, op = startOp(ctx, cl.cfg.Observer, observe.Op{Kind: observe.CountTokens, Name: "Messages.CountTokens",
			Method: "POST", Path: "/v1/messages/count_tokens", Model: p.Model, Request: &p})
	}
	var out MessageTokensCount
	_, err := cl.send(ctx, &request{
		method: http.MethodPost, path: "/v1/messages/count_tokens", body: &p, betas: p.betas(), out: &out, model: p.Model,
		retry: transport.Stateless, // nothing is left behind to duplicate
	})
	if err != nil {
		endOp(op, err)
		return nil, err
	}
	if op != nil {
		op.Result(observe.Result{Usage: observe.Usage{InputTokens: out.InputTokens}, Response: &out})
		op.End(nil)
	}
	return &out, nil
}

// nonStreamingTimeout scales the per-attempt timeout with max_tokens the
// way the official SDKs estimate generation time (60 min per 128k tokens),
// between 10 and 60 minutes.
func nonStreamingTimeout(maxTokens int) time.Duration {
	d := time.Duration(float64(time.Hour) * float64(maxTokens) / 128_000)
	return min(max(d, 10*time.Minute), time.Hour)
}

// billedTokens lets the client-side rate limiter correct its estimate.
func (m *Message) billedTokens() int { return billed(m.Usage) }

// billed is what a message's usage counts against the token limit, for
// replies and streams alike.
func billed(u Usage) int { return u.TotalInputTokens() + u.OutputTokens }
