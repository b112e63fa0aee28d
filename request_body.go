package mms

import (
	"errors"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// largeString is the size from which a string payload (base64 image or PDF
// data, a text document, a long text block) bypasses the JSON encoder and is
// spliced into the body directly; see codec.Splicer.
const largeString = 64 << 10

// encodeMessageBody encodes a Create (or Stream) body. members, if not
// empty, are inserted first (`"stream":true`), so streaming needs no second
// encoding. Large payloads are copied once, into a buffer of exactly the
// body's size; the caller's params are not modified.
func encodeMessageBody(p *MessageCreateParams, members string) ([]byte, error) {
	sp := codec.NewSplicer(largeString)
	light := *p
	light.Messages = spliceMessages(p.Messages, sp)
	body, err := codec.Marshal(&light)
	if err != nil {
		return nil, err
	}
	if !sp.Taken() && members == "" {
		return body, nil
	}
	out, err := sp.Splice(members, body)
	if errors.Is(err, codec.ErrSplice()) {
		// A custom encoding lost a token: fall back to the plain path.
		body, err = codec.Marshal(p)
		if err != nil {
			return nil, err
		}
		return codec.NewSplicer(largeString).Splice(members, body)
	}
	return out, err
}

// spliceMessages returns msgs with large strings taken by sp, copying only
// the turns and block lists that change.
func spliceMessages(msgs []MessageParam, sp *codec.Splicer) []MessageParam {
	out := msgs
	for i, m := range msgs {
		content, changed := spliceBlocks(m.Content, sp)
		if !changed {
			continue
		}
		if &out[0] == &msgs[0] {
			out = append([]MessageParam(nil), msgs...)
		}
		out[i].Content = content
	}
	return out
}

func spliceBlocks(blocks ContentBlocks, sp *codec.Splicer) (ContentBlocks, bool) {
	out := blocks
	changed := false
	for i, b := range blocks {
		nb, ok := spliceBlock(b, sp)
		if !ok {
			continue
		}
		if !changed {
			out = append(ContentBlocks(nil), blocks...)
			changed = true
		}
		out[i] = nb
	}
	return out, changed
}

// spliceBlock takes the large strings of one block, if it has any.
func spliceBlock(b ContentBlock, sp *codec.Splicer) (ContentBlock, bool) {
	large := func(s string) bool { return len(s) >= largeString }
	switch v := b.(type) {
	case TextBlock:
		if large(v.Text) {
			v.Text = sp.Take(v.Text)
			return v, true
		}
	case ImageBlock:
		if s, ok := v.Source.(Base64ImageSource); ok && large(s.Data) {
			s.Data = sp.Take(s.Data)
			v.Source = s
			return v, true
		}
	case DocumentBlock:
		switch s := v.Source.(type) {
		case Base64PDFSource:
			if large(s.Data) {
				s.Data = sp.Take(s.Data)
				v.Source = s
				return v, true
			}
		case PlainTextSource:
			if large(s.Data) {
				s.Data = sp.Take(s.Data)
				v.Source = s
				return v, true
			}
		}
	case ToolResultBlock:
		if content, changed := spliceBlocks(v.Content, sp); changed {
			v.Content = content
			return v, true
		}
	}
	return b, false
}
