package mms

// The root's side of internal/adminbridge: package admin builds its
// configuration and sends every request through the functions set here,
// that is through call.send and the list driver of pagination.go, so the
// Admin API shares the one pipeline without the root exporting anything.

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"mime"
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

func init() {
	adminbridge.NewConfig = func(opts []option.RequestOption) (*config.Config, error) { return newConfig(opts, true) }
	adminbridge.Send = adminSend
	adminbridge.Items = adminItems
	adminbridge.GetPage = adminPage
}

// adminCall is a call of package admin's client: opts applied once on top
// of cfg, then the call's credential checked against what the operation
// accepts, before anything is sent.
func adminCall(cfg *config.Config, opts []option.RequestOption, method, path string, want adminbridge.Credential) call {
	cl := (&Client{cfg: cfg, admin: true}).newCall(opts)
	if cl.err != nil {
		return cl
	}
	if err := checkAdminCredential(cl.cfg, method, path, want); err != nil {
		return call{err: err}
	}
	return cl
}

// checkAdminCredential refuses, before sending, a credential the
// operation does not accept (organization.md §1): a plain API key where an
// admin credential is required; an admin key or an API key where only an
// OAuth token (scope org:admin) is accepted.
func checkAdminCredential(cfg *config.Config, method, path string, want adminbridge.Credential) error {
	bearer := cfg.AuthToken != "" || cfg.Bearer != nil
	switch want {
	case adminbridge.AdminKey:
		if cfg.APIKey != "" {
			return fmt.Errorf("admin: %s %s needs an admin credential (option.WithAdminKey or $%s): a plain API key is refused and nothing was sent (%w)", method, path, adminbridge.EnvAdminKey, adminbridge.ErrCredential)
		}
	case adminbridge.OAuth:
		if !bearer {
			return fmt.Errorf("admin: %s %s accepts only an OAuth access token with scope org:admin (option.WithAuthToken, WithTokenSource, WithFederation or WithProfile): an admin key or an API key is refused and nothing was sent (%w)", method, path, adminbridge.ErrCredential)
		}
	}
	return nil
}

// adminSend sends r through call.send. A delete or archive that succeeded
// on a resend's "already gone" answer is answered as endpoint.removed does.
func adminSend(ctx context.Context, cfg *config.Config, opts []option.RequestOption, r *adminbridge.Request) error {
	cl := adminCall(cfg, opts, r.Method, r.Path, r.Credential)
	req := &request{method: r.Method, path: r.Path, query: r.Query, body: r.Body, betas: r.Betas, out: r.Out,
		retry: r.Retry, removes: r.Removes}
	if err := adminStreams(r, req); err != nil {
		return err
	}
	resp, err := cl.send(ctx, req)
	if err != nil {
		return err
	}
	if r.Download {
		*r.Out.(*FileDownload) = FileDownload{Body: resp.Body, ContentType: resp.Header.Get(wire.HeaderContentType),
			ContentLength: resp.ContentLength, Metadata: metadataFrom(resp.StatusCode, resp.Header, resp.Attempts, resp.PlatformRequestID)}
		if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
			(r.Out.(*FileDownload)).Filename = params["filename"]
		}
		return nil
	}
	if !resp.Resent {
		return nil
	}
	if r.Removes == transport.Archives {
		quiet := cl
		if cl.cfg.MetadataInto != nil {
			quiet.cfg = cl.cfg.Clone()
			quiet.cfg.MetadataInto = nil
		}
		record := strings.TrimSuffix(r.Path, "/archive")
		if _, err := quiet.send(ctx, &request{method: http.MethodGet, path: record, betas: r.Betas, out: r.Out}); err != nil {
			return fmt.Errorf("admin: POST %s: a resend found the record already archived or gone, but reading it failed: %w", r.Path, err)
		}
		return nil
	}
	if err := deletedAnswer(r.ID, r.Out); err != nil {
		return fmt.Errorf("admin: %s %s: %w", r.Method, r.Path, err)
	}
	return nil
}

// adminStreams sets req up for r's multipart body (Form) or streamed
// answer (Download), as endpoint.upload and FilesService.Download do.
func adminStreams(r *adminbridge.Request, req *request) error {
	if r.Form != nil {
		body, err := r.Form.Open()
		if err != nil {
			return fmt.Errorf("admin: %s %s: %w", r.Method, r.Path, err)
		}
		req.body, req.stream, req.size, req.contentType = nil, body, r.Form.Size(), r.Form.ContentType()
		if r.Form.Replayable() {
			req.getBody = r.Form.Open
		}
	}
	if r.Download {
		if _, ok := r.Out.(*FileDownload); !ok {
			return fmt.Errorf("admin: %s %s: a download needs an *mms.FileDownload to fill", r.Method, r.Path)
		}
		req.out, req.streaming, req.accept = nil, true, "application/zip" // the API's one download: a plugin version's .zip
	}
	return nil
}

// adminListCall is the root's list call of l.
func adminListCall(cfg *config.Config, opts []option.RequestOption, l *adminbridge.List) (listCall, listPos) {
	cl := adminCall(cfg, opts, http.MethodGet, l.Path, l.Credential)
	lc := listCall{call: cl, path: l.Path, query: l.Query, betas: l.Betas}
	if l.Scheme == adminbridge.ID {
		lc.scheme = idScheme
	} // else the cursor scheme, which pages past an empty page (organization.md §0.1)
	start := idStart(l.AfterID, l.BeforeID)
	if l.Page != "" {
		start = listPos{page: Cursor{Token: l.Page}}
	}
	return lc, start
}

// adminItems iterates over a list's items, undecoded, with the root's
// driver (listItems): lazy, restartable, loop-safe.
func adminItems(ctx context.Context, cfg *config.Config, opts []option.RequestOption, l *adminbridge.List) iter.Seq2[json.RawMessage, error] {
	lc, start := adminListCall(cfg, opts, l)
	if lc.call.err != nil {
		return listError[json.RawMessage](lc.call.err)
	}
	return listItems[json.RawMessage](ctx, lc, start)
}

// adminPage fetches one page of a list (fetchListPage).
func adminPage(ctx context.Context, cfg *config.Config, opts []option.RequestOption, l *adminbridge.List) (*adminbridge.Page, error) {
	lc, start := adminListCall(cfg, opts, l)
	if lc.call.err != nil {
		return nil, lc.call.err
	}
	p, err := fetchListPage[json.RawMessage](ctx, lc, start)
	if err != nil {
		return nil, err
	}
	out := &adminbridge.Page{Data: p.Data, HasMore: p.HasMore, FirstID: p.FirstID, LastID: p.LastID}
	if p.NextPage != nil {
		out.NextPage = &p.NextPage.Token
	}
	if p.PrevPage != nil {
		out.PrevPage = &p.PrevPage.Token
	}
	return out, nil
}
