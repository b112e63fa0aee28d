package transport

import "errors"

// The checks below refuse, when an option or environment variable is given,
// a header net/http would refuse on every attempt (and the SDK retry). Their
// errors never quote the value, which may be a secret.
var (
	errHeaderLineBreak = errors.New("contains a line break (CR or LF), which an HTTP header cannot carry")
	errHeaderControl   = errors.New("contains a control character, which an HTTP header cannot carry")
	errHeaderNameChar  = errors.New("is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)")
)

// CheckHeaderValue reports whether v can be sent as a header value: no
// control character except horizontal tab, the rule net/http enforces.
func CheckHeaderValue(v string) error {
	for i := 0; i < len(v); i++ {
		switch b := v[i]; {
		case b == '\r' || b == '\n':
			return errHeaderLineBreak
		case b < ' ' && b != '\t' || b == 0x7f:
			return errHeaderControl
		}
	}
	return nil
}

// CheckHeaderName reports whether k is a non-empty header name (an RFC 9110
// token).
func CheckHeaderName(k string) error {
	if k == "" {
		return errHeaderNameChar
	}
	for i := 0; i < len(k); i++ {
		if !isTokenChar(k[i]) {
			return errHeaderNameChar
		}
	}
	return nil
}

func isTokenChar(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	switch b {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
