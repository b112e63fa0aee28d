package mms

import (
	"fmt"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// API versions, the values of option.WithVersion. A client sends
// APIVersion20230601 unless told otherwise.
const (
	// APIVersion20230601 is the default version.
	APIVersion20230601 = "2023-06-01"
	// APIVersion20261021 refuses, in Messages requests (create, stream,
	// count_tokens and every request of a batch created with it):
	// temperature, top_p and top_k, even at their default values; a
	// document block directly in an assistant turn; a text block with
	// citations in a user turn. The SDK refuses these before sending, with
	// a *ValidationError naming the field.
	APIVersion20261021 = "2026-10-21"
)

// callVersion is the vendor-version a call sends: option.WithHeader's value
// wins over option.WithVersion's, as in the transport's header assembly.
func callVersion(cfg *config.Config) string { return transport.CallVersion(cfg) }

// versionRefused is the error for a shape the call's version refuses.
func versionRefused(field, version, format string, args ...any) error {
	return invalid(field, "is refused by API version %s: %s (option.WithVersion(%q) still accepts it)",
		version, fmt.Sprintf(format, args...), APIVersion20230601)
}

// checkVersion applies the refusals of the call's API version to a create
// (or stream, or batch item) body; field prefixes the paths ("" or
// "requests[3].params.").
func (p *MessageCreateParams) checkVersion(version, field string) error {
	if !wire.VersionRefuses(version) {
		return nil
	}
	switch {
	case p.Temperature != nil:
		return versionRefused(field+"temperature", version, "sampling parameters are gone, even at their defaults; remove it")
	case p.TopP != nil:
		return versionRefused(field+"top_p", version, "sampling parameters are gone, even at their defaults; remove it")
	case p.TopK != nil:
		return versionRefused(field+"top_k", version, "sampling parameters are gone, even at their defaults; remove it")
	}
	return checkTurnsVersion(p.Messages, version, field)
}

// checkVersion applies the refusals of the call's API version to a
// count_tokens body.
func (p *MessageCountTokensParams) checkVersion(version string) error {
	if !wire.VersionRefuses(version) {
		return nil
	}
	return checkTurnsVersion(p.Messages, version, "")
}

// checkTurnsVersion refuses a document block directly in an assistant turn
// and a text block with a non-empty citations list in a user turn.
func checkTurnsVersion(turns []MessageParam, version, field string) error {
	for i, m := range turns {
		for j, b := range m.Content {
			path := fmt.Sprintf("%smessages[%d].content[%d]", field, i, j)
			// A pointer to a block is a block too (the markers have value
			// receivers).
			var cites Citations
			doc := false
			switch b := b.(type) {
			case DocumentBlock, *DocumentBlock:
				doc = true
			case TextBlock:
				cites = b.Citations
			case *TextBlock:
				if b != nil {
					cites = b.Citations
				}
			}
			if doc && m.Role == RoleAssistant {
				return versionRefused(path, version, "a document block may not be placed in an assistant turn; put it in a user turn")
			}
			if len(cites) > 0 && m.Role == RoleUser {
				return versionRefused(path+".citations", version, "a user text block may not carry citations; remove them")
			}
		}
	}
	return nil
}
