package transport

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/config"
)

// Mask is what a scrubbed secret becomes.
const Mask = "[redacted]"

// MinSecretLen is the shortest secret a Scrubber hides. A value of one to
// three bytes is no real credential, and hiding it would rewrite ordinary
// words in the server's text ("tok" inside "token").
const MinSecretLen = 4

// A Scrubber hides the secrets an attempt carried (the credential, the
// credential headers, the secrets of the request's params) in text that
// comes back: a server may echo them in an error body, and that body
// becomes an error's message and a retry's log line. Each secret is
// replaced by [Mask] in its raw form and in the forms a server may have
// escaped it into (JSON, with or without HTML escaping and with "\/",
// and URL escaping). The list is built on first use, so an attempt that
// succeeds pays nothing. A nil *Scrubber changes nothing.
type Scrubber struct {
	cfg   *config.Config
	req   *Request
	sent  http.Header
	built bool
	forms []string // longest first, so a secret inside another goes whole
}

// NewScrubber returns the scrubber of an attempt of req that sent header
// sent (nil when none was built yet).
func NewScrubber(cfg *config.Config, req *Request, sent http.Header) *Scrubber {
	return &Scrubber{cfg: cfg, req: req, sent: sent}
}

// ScrubberOf returns a scrubber of the given secrets alone.
func ScrubberOf(secrets ...string) *Scrubber {
	s := &Scrubber{built: true}
	s.add(secrets)
	return s
}

func (s *Scrubber) build() {
	if s.built {
		return
	}
	s.built = true
	var secrets []string
	if s.cfg != nil {
		secrets = append(secrets, s.cfg.APIKey, s.cfg.AuthToken, s.cfg.AdminKey)
	}
	for k, vs := range s.sent {
		if !redacted[http.CanonicalHeaderKey(k)] {
			continue
		}
		for _, v := range vs {
			secrets = append(secrets, v)
			if _, cred, ok := strings.Cut(v, " "); ok { // "Bearer <token>"
				secrets = append(secrets, strings.TrimSpace(cred))
			}
		}
	}
	if s.req != nil && s.req.Secrets != nil {
		secrets = append(secrets, s.req.Secrets(s.req.Params)...)
	}
	s.add(secrets)
}

func (s *Scrubber) add(secrets []string) {
	for _, v := range secrets {
		if len(strings.TrimSpace(v)) < MinSecretLen {
			continue
		}
		q := codec.AppendQuoted(nil, v)
		plain := string(q[1 : len(q)-1])
		html, _ := json.Marshal(v)
		htmlForm := string(html[1 : len(html)-1])
		for _, f := range []string{v, plain, htmlForm,
			strings.ReplaceAll(plain, "/", `\/`), strings.ReplaceAll(htmlForm, "/", `\/`),
			url.QueryEscape(v), url.PathEscape(v)} {
			if len(f) >= MinSecretLen && !slices.Contains(s.forms, f) {
				s.forms = append(s.forms, f)
			}
		}
	}
	slices.SortStableFunc(s.forms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
}

// String returns t with every secret masked.
func (s *Scrubber) String(t string) string {
	if s == nil || t == "" {
		return t
	}
	s.build()
	for _, f := range s.forms {
		if strings.Contains(t, f) {
			t = strings.ReplaceAll(t, f, Mask)
		}
	}
	return t
}

// Bytes returns b with every secret masked: b itself when none occurs.
func (s *Scrubber) Bytes(b []byte) []byte {
	if s == nil || len(b) == 0 {
		return b
	}
	if t := s.String(string(b)); t != string(b) {
		return []byte(t)
	}
	return b
}

// Header returns h, or a copy with every secret in a value masked.
func (s *Scrubber) Header(h http.Header) http.Header {
	if s == nil || h == nil {
		return h
	}
	var out http.Header
	for k, vs := range h {
		for i, v := range vs {
			if t := s.String(v); t != v {
				if out == nil {
					out = h.Clone()
				}
				out[k][i] = t
			}
		}
	}
	if out == nil {
		return h
	}
	return out
}

// Err returns err, or an error whose text has URL userinfo and the
// secrets masked, with err still in its chain for errors.Is and errors.As.
func (s *Scrubber) Err(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if r := s.String(RedactURL(msg)); r != msg {
		return &redactedError{err: err, msg: r}
	}
	return err
}
