package transport

import (
	"net/url"
	"strings"
)

// RedactURL replaces the userinfo of every "scheme://userinfo@host" in s by
// "[redacted]". A base URL may carry a proxy's user and password, and
// net/http quotes request URLs (username included) in its errors.
func RedactURL(s string) string {
	var b strings.Builder
	rest, changed := s, false
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		start := i + len("://")
		auth := rest[start:]
		if end := strings.IndexAny(auth, "/?# \t\r\n"); end >= 0 {
			auth = auth[:end]
		}
		b.WriteString(rest[:start])
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			b.WriteString("[redacted]")
			start += at
			changed = true
		}
		rest = rest[start:]
	}
	if !changed {
		return s
	}
	b.WriteString(rest)
	return b.String()
}

// redactedError is an error whose text had URL userinfo removed; the
// original stays in the chain for errors.Is and errors.As.
type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactErr hides URL userinfo and the secrets sc knows in err's text.
func redactErr(err error, sc *Scrubber) error { return sc.Err(err) }

// redactURLError replaces a *url.Error from net/http by a copy whose URL has
// no userinfo, so errors.As does not hand the username out either.
func redactURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		if r := RedactURL(ue.URL); r != ue.URL {
			return &url.Error{Op: ue.Op, URL: r, Err: ue.Err}
		}
	}
	return err
}
