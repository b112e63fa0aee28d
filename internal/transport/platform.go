package transport

// Partner platforms: a call mapped onto a platform by its adapter (package
// platform). Prepare runs once per call, before anything is sent; for each
// attempt the middleware sees the service-shaped request, then the last
// link of the chain puts on the platform's URL, headers and body,
// authenticates and translates the answer.

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/platform"
)

// platformCall is one call as its platform adapter mapped it.
type platformCall struct {
	adapter platform.Adapter
	r       *platform.Request
	target  *url.URL
	set     http.Header // headers Prepare added or changed
	deleted []string    // headers Prepare removed
	body    []byte      // the platform body; nil for none or a streamed upload
}

// preparePlatform asks the adapter to map req, applies its body edits and
// checks the platform's size limit. Nothing has been sent.
func preparePlatform(cfg *config.Config, req *Request, betas []string, header http.Header, errs Errors) (*platformCall, error) {
	q := url.Values{}
	for k, v := range req.Query {
		q[k] = slices.Clone(v)
	}
	r := &platform.Request{
		Endpoint: platform.EndpointOf(req.Method, req.Path),
		Method:   req.Method, Path: req.Path, Query: q, Header: header.Clone(),
		Model: req.Model, Stream: req.Stream, Betas: slices.Clone(betas),
		HasJSONBody: req.Body != nil && codec.IsObject(req.Body),
		MaxBodySize: wire.BodyLimit(req.Path),
	}
	a := cfg.Platform
	if err := a.Prepare(r); err != nil {
		return nil, err
	}
	pc := &platformCall{adapter: a, r: r, body: req.Body}
	if edits := r.Edits(); len(edits) > 0 {
		if !r.HasJSONBody {
			return nil, fmt.Errorf("mms: %s: the adapter edits the body of %s %s, which is not a JSON object", a.Name(), req.Method, req.Path)
		}
		body, err := editMembers(req.Body, edits)
		if err != nil {
			return nil, fmt.Errorf("mms: %s: editing the body of %s %s: %w", a.Name(), req.Method, req.Path, err)
		}
		pc.body = body
	}
	size := int64(len(pc.body))
	if req.Body == nil {
		size = req.Size
	}
	if size > r.MaxBodySize {
		return nil, errs.RequestTooLarge(req.Method, req.Path, size, r.MaxBodySize, false)
	}
	target, err := url.Parse(buildURL(cfg.BaseURL, r.Path, r.Query))
	if err != nil {
		return nil, fmt.Errorf("mms: %s: the platform path %q: %w", a.Name(), r.Path, err)
	}
	pc.target = target
	pc.set = http.Header{}
	for k, v := range r.Header {
		if !slices.Equal(header[k], v) {
			pc.set[k] = v
		}
	}
	for k := range header {
		if _, ok := r.Header[k]; !ok {
			pc.deleted = append(pc.deleted, k)
		}
	}
	return pc, nil
}

// editMembers returns obj with the edits applied to its top-level members:
// a member set is replaced where it stands or added at the end, a member
// deleted is left out.
func editMembers(obj []byte, edits []platform.Edit) ([]byte, error) {
	present := map[string]bool{}
	if err := codec.EachMember(obj, func(k string, _ []byte) error { present[k] = true; return nil }); err != nil {
		return nil, err
	}
	final := map[string][]byte{} // the member's last value; nil: deleted
	var order []string           // members added, in order
	for _, e := range edits {
		v, edited := final[e.Name]
		has := edited && v != nil || !edited && present[e.Name]
		if e.IfAbsent && has {
			continue
		}
		if !present[e.Name] && !edited {
			order = append(order, e.Name)
		}
		final[e.Name] = e.Value
	}
	var b bytes.Buffer
	b.Grow(len(obj) + 64)
	b.WriteByte('{')
	first := true
	member := func(k string, v []byte) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(codec.AppendQuoted(nil, k))
		b.WriteByte(':')
		b.Write(v)
	}
	err := codec.EachMember(obj, func(k string, v []byte) error {
		if nv, ok := final[k]; ok {
			if nv != nil {
				member(k, nv)
			}
			return nil
		}
		member(k, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, k := range order {
		if v := final[k]; v != nil {
			member(k, v)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// link returns the last link of the middleware chain for the call: it puts
// the platform's URL, headers and body on the attempt, authenticates it
// and translates the answer.
func (pc *platformCall) link(cfg *config.Config, next config.MiddlewareNext) config.MiddlewareNext {
	return func(req *http.Request) (*http.Response, error) {
		out := req.Clone(req.Context())
		u := *pc.target
		out.URL, out.Host = &u, ""
		for _, k := range pc.deleted {
			out.Header.Del(k)
		}
		for k, v := range pc.set {
			out.Header[k] = slices.Clone(v)
		}
		body := pc.body // nil for a streamed upload: the middleware's body goes as it is
		if body != nil {
			out.Body, out.ContentLength, out.GetBody = io.NopCloser(bytes.NewReader(body)), int64(len(body)), nil
		}
		if body == nil && (out.Body == nil || out.Body == http.NoBody) {
			body = []byte{} // no body: empty, where nil means a streamed upload
		}
		if err := pc.adapter.Authenticate(out.Context(), out, body); err != nil {
			return nil, &final{err: fmt.Errorf("mms: %s: authenticating: %w", pc.adapter.Name(), err)}
		}
		logPlatform(cfg, out, pc.adapter.Name())
		resp, err := next(out)
		if err != nil {
			return nil, err
		}
		translated, err := pc.adapter.Response(resp, pc.r)
		if err != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("mms: %s: reading the answer: %w", pc.adapter.Name(), err)
		}
		return translated, nil
	}
}

// platformRequestID returns the platform's own request id in h.
func platformRequestID(cfg *config.Config, h http.Header) string {
	if cfg.Platform == nil {
		return ""
	}
	name := cfg.Platform.RequestIDHeader()
	if name == "" {
		return ""
	}
	return h.Get(name)
}
