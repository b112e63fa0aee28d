// Package adminbridge lets package admin send through the root package's
// one pipeline without the root exporting anything for it. The root sets
// the function variables in an init (admin imports the root, so they are
// set before admin's code runs); admin builds its configuration with
// NewConfig and sends every request with Send, List or ListPage, which
// run the root's call.send (options applied once per call, retries by
// class, ErrMaybeApplied, scrubbing, observer, rate limit, metadata) and
// its list driver (pagination.go).
package adminbridge

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/url"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/option"
)

// EnvAdminKey is the variable admin.NewClient reads an admin key from when
// no option gives a credential.
const EnvAdminKey = "VENDOR_ADMIN_KEY"

// ErrCredential is matched by the refusal of a credential an operation
// does not accept (admin.ErrCredential is this value).
var ErrCredential = errors.New("the operation does not accept this kind of credential")

// Credential is the kind of credential an operation of the Admin API
// accepts (organization.md §1). The root checks the call's credential
// against it before sending.
type Credential uint8

const (
	// AdminKey: an admin key (or a bearer token, which the service judges
	// by its scope); a plain API key is refused before sending.
	AdminKey Credential = iota
	// OAuth: a bearer token (OAuth, scope org:admin) only; an admin key or
	// an API key is refused before sending.
	OAuth
	// AnyKey: an API key (scope read:analytics), an admin key or a token.
	AnyKey
)

// Request is one request of an Admin API operation.
type Request struct {
	Method, Path string // Path escaped, under one of transport.AdminPathPrefixes
	Query        url.Values
	Body         any // encoded in request form; nil for none
	Betas        []string
	Out          any // decode target
	Retry        transport.Retry
	Removes      transport.Removal
	// ID is the record's id (unescaped) for a delete: a resend's "already
	// gone" answer is decoded as {"id": ID}.
	ID         string
	Credential Credential
	// Form, when set, is a multipart body sent instead of Body, streamed
	// (and resent only when its sources are replayable).
	Form *multipart.Form
	// Download leaves the response body open: Send fills Out, an
	// *mms.FileDownload, instead of decoding JSON into it.
	Download bool
}

// Scheme is how a list pages.
type Scheme uint8

const (
	// Cursor: page = next_page while it is not empty (an empty data page
	// with a next_page continues, organization.md §0.1); has_more false
	// ends it where the list sends one.
	Cursor Scheme = iota
	// ID: after_id = last_id (before_id = first_id backwards) while
	// has_more.
	ID
)

// List is one list call of an Admin API operation.
type List struct {
	Path       string
	Betas      []string
	Scheme     Scheme
	Query      url.Values // limit and filters, not the paging members
	AfterID    string
	BeforeID   string
	Page       string
	Credential Credential
}

// Page is one page as the root's driver reads it, items undecoded.
type Page struct {
	Data                                []json.RawMessage
	HasMore                             bool
	FirstID, LastID, NextPage, PrevPage *string
}

// Set by the root package's init (admin.go in package mms).
var (
	// NewConfig builds a client configuration as mms.NewClient does, with
	// the admin key (option.WithAdminKey, else $VENDOR_ADMIN_KEY) first in
	// the credential chain and no platform.
	NewConfig func(opts []option.RequestOption) (*config.Config, error)
	// Send sends r with opts applied on top of cfg and decodes the answer
	// into r.Out.
	Send func(ctx context.Context, cfg *config.Config, opts []option.RequestOption, r *Request) error
	// Items iterates over a list's items, paging with the root's driver.
	Items func(ctx context.Context, cfg *config.Config, opts []option.RequestOption, l *List) iter.Seq2[json.RawMessage, error]
	// GetPage fetches one page of a list.
	GetPage func(ctx context.Context, cfg *config.Config, opts []option.RequestOption, l *List) (*Page, error)
)
