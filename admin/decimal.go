package admin

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
)

// Decimal is an exact decimal number, as the service writes money
// ("123.456", "-0.5", "1200"): never a float64, so amounts add up to the
// cent. It decodes from a JSON string or a JSON number (kept as written)
// and encodes as a JSON string. The zero value "" is no number.
type Decimal string

// MarshalJSON writes the decimal as a JSON string.
func (d Decimal) MarshalJSON() ([]byte, error) {
	if d != "" && !validDecimal(string(d)) {
		return nil, fmt.Errorf("admin: %q is not a decimal number", string(d))
	}
	return json.Marshal(string(d))
}

// UnmarshalJSON reads a JSON string or number holding a decimal number.
func (d *Decimal) UnmarshalJSON(data []byte) error {
	s := strings.TrimSpace(string(data))
	if s == "null" {
		*d = ""
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
	}
	if !validDecimal(s) {
		return fmt.Errorf("admin: %q is not a decimal number", s)
	}
	*d = Decimal(s)
	return nil
}

// String returns the number as written.
func (d Decimal) String() string { return string(d) }

// validDecimal accepts an optional sign, digits, an optional fraction and
// an optional exponent (as JSON numbers allow).
func validDecimal(s string) bool {
	_, ok := new(big.Rat).SetString(s)
	return ok && s != "" && !strings.ContainsAny(s, "/ \t")
}

// Rat returns the exact value.
func (d Decimal) Rat() (*big.Rat, error) {
	r, ok := new(big.Rat).SetString(string(d))
	if !ok || !validDecimal(string(d)) {
		return nil, fmt.Errorf("admin: %q is not a decimal number", string(d))
	}
	return r, nil
}

// scale is the number of fractional digits d is written with (after its
// exponent, if any).
func (d Decimal) scale() int {
	s := strings.ToLower(string(d))
	mant, exp, _ := strings.Cut(s, "e")
	frac := 0
	if _, f, ok := strings.Cut(mant, "."); ok {
		frac = len(f)
	}
	var e int
	fmt.Sscan(exp, &e)
	return max(frac-e, 0)
}

// Add returns d + o exactly, written with as many fractional digits as
// the more precise of the two. An empty Decimal counts as 0.
func (d Decimal) Add(o Decimal) (Decimal, error) {
	return SumDecimals(d, o)
}

// SumDecimals returns the exact sum of ds ("0" for none), written with as
// many fractional digits as the most precise of them; empty ones count as
// 0.
func SumDecimals(ds ...Decimal) (Decimal, error) {
	sum, scale := new(big.Rat), 0
	for _, d := range ds {
		if d == "" {
			continue
		}
		r, err := d.Rat()
		if err != nil {
			return "", err
		}
		sum.Add(sum, r)
		scale = max(scale, d.scale())
	}
	return Decimal(sum.FloatString(scale)), nil
}

// validateMinorUnits reports d not a non-negative integer (minor units).
func (d Decimal) validateMinorUnits(field string) error {
	s := string(d)
	if s == "" {
		return invalid(field, "is required")
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return invalid(field, "must be a non-negative integer number of minor units (e.g. \"5000\" for 50.00), got %q", s)
		}
	}
	return nil
}
