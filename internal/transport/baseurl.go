package transport

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ParseBaseURL checks a base URL as option.WithBaseURL and $VENDOR_BASE_URL
// need it: absolute, http or https, no query or fragment; a trailing slash
// is dropped. Its errors show the URL with any userinfo redacted.
func ParseBaseURL(base string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // ue quotes the whole URL, userinfo included
		}
		return nil, fmt.Errorf("option: base URL %q does not parse: %w", shownURL(base), err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("option: base URL %q must be an absolute http or https URL", shownURL(base))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("option: base URL %q must not carry a query or fragment", shownURL(base))
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// shownURL is base as an error may quote it: userinfo redacted, also when
// the scheme is missing ("user:pw@host", "//user:pw@host").
func shownURL(base string) string {
	s := RedactURL(base)
	if s != base {
		return s
	}
	rest := strings.TrimPrefix(s, "//")
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
		return "[redacted]" + rest[at:]
	}
	return s
}
