package transport

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects is net/http's default limit, kept when the caller's client
// has no CheckRedirect of its own.
const maxRedirects = 10

// withRedirectPolicy returns a shallow copy of hc (same Transport, Jar and
// Timeout; hc itself is not changed) whose CheckRedirect applies the SDK's
// rule before the caller's own.
func withRedirectPolicy(hc *http.Client, base *url.URL, req *Request, errs Errors) *http.Client {
	c := *hc
	own := hc.CheckRedirect
	c.CheckRedirect = func(next *http.Request, via []*http.Request) error {
		status := 0
		if next.Response != nil {
			status = next.Response.StatusCode
		}
		refuse := func(reason string, err error) error {
			return &final{errs.Redirect(req.Method, req.Path, status, next.URL.Host, reason, err)}
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
func unfollowedRedirect(req *Request, base *url.URL, resp *http.Response, errs Errors) error {
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
	return errs.Redirect(req.Method, req.Path, resp.StatusCode, target.Host, reason, nil)
}
