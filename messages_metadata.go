package mms

import (
	"encoding/json"
)

// Metadata describes the request for the service's own records.
//
//mms:json request
type Metadata struct {
	// UserID is an opaque identifier of the end user (a uuid or hash), at
	// most 512 characters. It must not contain personal data such as a
	// name, email or phone number.
	UserID string `json:"user_id,omitzero"`
	// Extra holds members the decoded JSON carried with a value that
	// decodes to zero ("user_id": null), which encoding writes back while
	// the field is unset, and members this SDK version does not model.
	// Leave it nil.
	Extra map[string]json.RawMessage `json:"-"`
}

// maxUserIDLen bounds metadata.user_id (the service's request schema,
// BetaMetadata).
const maxUserIDLen = 512

// validate checks the user id's length; path is "metadata".
func (m *Metadata) validate(path string) error {
	return validateLength(path+".user_id", m.UserID, 0, maxUserIDLen)
}
