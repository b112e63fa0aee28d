package jsonschema

import (
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Formats are the string formats this package checks, which are also the
// formats the service accepts in a structured-output schema.
var Formats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// FormatSupported reports whether name is one of Formats.
func FormatSupported(name string) bool {
	for _, f := range Formats {
		if f == name {
			return true
		}
	}
	return false
}

var (
	uuidPattern     = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	durationPattern = regexp.MustCompile(`^P(?:[0-9]+W|(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:T(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+(?:[.,][0-9]+)?S)?)?)$`)
	labelPattern    = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)
)

// CheckFormat checks s against a format of Formats with simple parsers; an
// unknown format passes (formats are annotations unless known).
func CheckFormat(format, s string) error {
	ok := true
	switch format {
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		ok = err == nil
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		ok = err == nil
	case "time":
		// The parser takes a fractional second after the seconds.
		_, err := time.Parse("15:04:05Z07:00", s)
		ok = err == nil
	case "duration":
		ok = durationPattern.MatchString(s) && s != "P" && !strings.HasSuffix(s, "T")
	case "email":
		at := strings.IndexByte(s, '@')
		ok = at > 0 && at < len(s)-1 && strings.Count(s, "@") == 1 && !strings.ContainsAny(s, " \t\r\n")
	case "hostname":
		ok = isHostname(s)
	case "uri":
		u, err := url.Parse(s)
		ok = err == nil && u.Scheme != ""
	case "ipv4":
		a, err := netip.ParseAddr(s)
		ok = err == nil && a.Is4()
	case "ipv6":
		a, err := netip.ParseAddr(s)
		ok = err == nil && a.Is6() && a.Zone() == ""
	case "uuid":
		ok = uuidPattern.MatchString(s)
	}
	if !ok {
		return fmt.Errorf("want format %s, got %s", format, compact(s))
	}
	return nil
}

func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if !labelPattern.MatchString(l) {
			return false
		}
	}
	return true
}
