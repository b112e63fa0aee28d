package transport

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// RedirectError reports a redirect the SDK did not follow. It follows only
// redirects of idempotent methods (GET, HEAD, OPTIONS, TRACE, PUT, DELETE)
// that stay on the base URL's origin (scheme, host and port), because the
// request carries the credential and a non-idempotent request must not be
// sent twice. It is not retried. Exported as mms.RedirectError.
type RedirectError struct {
	Method, Path string
	// StatusCode is the redirect's status: 301, 302, 303, 307 or 308.
	StatusCode int
	// Host is the target's host[:port], without userinfo, path or query.
	Host string
	// Reason says why the redirect was not followed.
	Reason string
	// Err is the error of the http.Client's own CheckRedirect, when that
	// refused the redirect.
	Err error
}

func (e *RedirectError) Error() string {
	s := fmt.Sprintf("mms: %s %s: did not follow the %d redirect to %s: %s", e.Method, e.Path, e.StatusCode, e.Host, e.Reason)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *RedirectError) Unwrap() error { return e.Err }

// maxRedirects is net/http's default limit, kept when the caller's client
// has no CheckRedirect of its own.
const maxRedirects = 10

// withRedirectPolicy returns a shallow copy of hc (same Transport, Jar and
// Timeout; hc itself is not changed) whose CheckRedirect applies the SDK's
// rule before the caller's own.
func withRedirectPolicy(hc *http.Client, base *url.URL, req *Request) *http.Client {
	c := *hc
	own := hc.CheckRedirect
	c.CheckRedirect = func(next *http.Request, via []*http.Request) error {
		status := 0
		if next.Response != nil {
			status = next.Response.StatusCode
		}
		refuse := func(reason string, err error) error {
			return &RedirectError{Method: req.Method, Path: req.Path, StatusCode: status, Host: next.URL.Host, Reason: reason, Err: err}
		}
		if reason := redirectRefusal(via[0].Method, next.URL, base); reason != "" {
			return refuse(reason, nil)
		}
		if own != nil {
			err := own(next, via)
			if err != nil && !errors.Is(err, http.ErrUseLastResponse) {
				return refuse("the http.Client's CheckRedirect refused it", err)
			}
			return err
		}
		if len(via) >= maxRedirects {
			return refuse(fmt.Sprintf("stopped after %d redirects", maxRedirects), nil)
		}
		return nil
	}
	return &c
}

// redirectRefusal says why a redirect of method to target must not be
// followed, or "" when it may be.
func redirectRefusal(method string, target, base *url.URL) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
	default:
		return method + " is not idempotent, so the SDK does not send it again"
	}
	if !sameOrigin(target, base) {
		return "it leaves the base URL's origin, and the credential is only sent there"
	}
	return ""
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// unfollowedRedirect builds the error for a redirect that reached the SDK
// unfollowed (net/http does not re-send a body it cannot rewind on 307/308,
// and a CheckRedirect may answer ErrUseLastResponse), or nil when resp is
// not a redirect.
func unfollowedRedirect(req *Request, base *url.URL, resp *http.Response) error {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return nil
	}
	loc := resp.Header.Get("Location")
	if loc == "" || resp.Request == nil {
		return nil
	}
	target, err := resp.Request.URL.Parse(loc)
	if err != nil {
		return nil
	}
	reason := redirectRefusal(req.Method, target, base)
	if reason == "" {
		reason = "the http.Client did not follow it (its CheckRedirect, or a body it cannot send again)"
	}
	return &RedirectError{Method: req.Method, Path: req.Path, StatusCode: resp.StatusCode, Host: target.Host, Reason: reason}
}
