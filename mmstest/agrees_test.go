package mmstest

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mms-sdk/mms-go/internal/jsonschema"
)

// TestStringFormatsAgree holds the fake's structured-output string formats
// (the ones it accepts and builds values for) equal to the SDK's
// (internal/jsonschema.Formats, which the SDK's schema checks use).
func TestStringFormatsAgree(t *testing.T) {
	assert.ElementsMatch(t, jsonschema.Formats, slices.Collect(maps.Keys(stringFormats)))
}
