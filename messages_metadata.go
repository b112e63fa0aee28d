package mms

import (
	"encoding/json"
)

// MessageMetadata describes a Messages request for the service's own
// records ([MessageCreateParams.Metadata]). (The managed-agents resources
// carry metadata as a map[string]string, updated with [MetadataPatch].)
//
//mms:json request
type MessageMetadata struct {
	// UserID is an opaque identifier of the end user (a uuid or hash), at
	// most 512 characters. It must not contain personal data such as a
	// name, email or phone number.
	UserID string `json:"user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// maxUserIDLen bounds metadata.user_id (the service's request schema,
// BetaMetadata).
const maxUserIDLen = 512

// validate checks the user id's length; path is "metadata".
func (m *MessageMetadata) validate(path string) error {
	return validateLength(path+".user_id", m.UserID, 0, maxUserIDLen)
}

// Deprecated: use MessageMetadata; managed-agents metadata is a
// map[string]string.
type Metadata = MessageMetadata
