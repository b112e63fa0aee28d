package mcp

import (
	"context"
	"errors"
	"fmt"

	mms "github.com/mms-sdk/mms-go"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ResourceContent reads the resource at uri through session and returns
// its contents as content blocks, one per contents entry, to put in a
// message (for instance mms.UserMessage(blocks...)). By media type:
//   - text contents: a plain-text document titled with the contents' URI;
//   - a JPEG, PNG, GIF or WebP blob: an image;
//   - a PDF blob: a PDF document titled with the URI;
//   - a text/*, JSON, XML or YAML blob that is valid UTF-8: a plain-text
//     document;
//   - any other blob (audio, archives, …): a text block describing it
//     ("[MCP resource content <uri> (<type>, <n> bytes) not included: …]"),
//     as the Messages API has no block for it.
//
// The size is bounded by the transport only (see [Options].MaxResultBytes
// for tool results); a protocol error, such as an unknown resource, is
// returned wrapped.
func ResourceContent(ctx context.Context, session *mcp.ClientSession, uri string) (mms.ContentBlocks, error) {
	if session == nil {
		return nil, errors.New("mcp: the session is nil")
	}
	res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("mcp: reading resource %s: %w", uri, err)
	}
	if res.NeedsInput() {
		return nil, fmt.Errorf("mcp: reading resource %s: the server asks for input (input_required)", uri)
	}
	out := make(mms.ContentBlocks, 0, len(res.Contents))
	for i, c := range res.Contents {
		if c == nil {
			return nil, fmt.Errorf("mcp: reading resource %s: contents[%d] is null", uri, i)
		}
		out = append(out, resourceBlock(c))
	}
	return out, nil
}

// Prompt gets the prompt name from session, filled in with args, and
// returns its messages as Messages API messages, in order. Consecutive
// messages of one role are merged into one message (the Messages API
// alternates roles). Each message's content is converted as a tool
// result's is (see [Tool]): text, images, embedded resources as
// documents or images, and text descriptions of what the API has no
// block for (audio, resource links); empty text is left out, and a
// message left with no content is dropped.
func Prompt(ctx context.Context, session *mcp.ClientSession, name string, args map[string]string) ([]mms.MessageParam, error) {
	if session == nil {
		return nil, errors.New("mcp: the session is nil")
	}
	res, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("mcp: getting prompt %s: %w", name, err)
	}
	if res.NeedsInput() {
		return nil, fmt.Errorf("mcp: getting prompt %s: the server asks for input (input_required)", name)
	}
	var msgs []mms.MessageParam
	for i, m := range res.Messages {
		if m == nil {
			return nil, fmt.Errorf("mcp: prompt %s: messages[%d] is null", name, i)
		}
		var role mms.Role
		switch m.Role {
		case "user":
			role = mms.RoleUser
		case "assistant":
			role = mms.RoleAssistant
		default:
			return nil, fmt.Errorf("mcp: prompt %s: messages[%d] has role %q, not user or assistant", name, i, m.Role)
		}
		b, err := contentBlock(m.Content)
		if err != nil {
			return nil, fmt.Errorf("mcp: prompt %s: messages[%d]: %w", name, i, err)
		}
		if b == nil {
			continue
		}
		if n := len(msgs); n > 0 && msgs[n-1].Role == role {
			msgs[n-1].Content = append(msgs[n-1].Content, b)
			continue
		}
		msgs = append(msgs, mms.MessageParam{Role: role, Content: mms.ContentBlocks{b}})
	}
	return msgs, nil
}
