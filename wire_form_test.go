package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/fixtures"

	"github.com/stretchr/testify/require"
)

// The decoded form of a response: every response type, decoded from its
// fixtures, marshals back to the members it came with, each value as
// received (absent stays absent, null stays null, a timestamp keeps its
// text), and decoding that again gives the same value. Besides each
// fixture as it is, the test derives from it, generically, the documents
// the service may also send: each member left out in turn, each member
// null in turn, and every timestamp in another RFC 3339 form.

// formDecoder decodes one response document the way the SDK does.
type formDecoder func(data []byte) (any, error)

func formRecord[T any](data []byte) (any, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

func formSessionEvent(data []byte) (any, error) { return sessionEventUnion.Decode(data) }

// responseFixtures maps the response fixtures under testdata/golden
// (patterns relative to it, first match wins) to their decoders.
var responseFixtures = []struct {
	pattern string
	decode  formDecoder
}{
	{"agents/*.json", formRecord[Agent]},
	{"batches/*.json", formRecord[Batch]},
	{"environments/environment_*.json", formRecord[Environment]},
	{"environments/work_heartbeat.json", formRecord[WorkHeartbeat]},
	{"environments/work_queue_stats.json", formRecord[WorkQueueStats]},
	{"environments/work_*.json", formRecord[Work]},
	{"errors/*.json", formRecord[ErrorResponse]},
	{"files/delete.json", formRecord[FileDeleted]},
	{"files/*.json", formRecord[FileMetadata]},
	{"memory_stores/store*.json", formRecord[MemoryStore]},
	{"memory_stores/memory_*.json", formRecord[Memory]},
	{"memory_stores/version_*.json", formRecord[MemoryVersionRecord]},
	{"messages/*.json", formRecord[Message]},
	{"models/*.json", formRecord[ModelInfo]},
	{"sessions/session_*.json", formRecord[Session]},
	{"sessions/thread_*.json", formRecord[SessionThread]},
	{"sessions/events/*.json", formSessionEvent},
	{"tunnels/tunnel*.json", formRecord[Tunnel]},
	{"deployments/deployment*.json", formRecord[Deployment]},
	{"deployments/run*.json", formRecord[DeploymentRun]},
	{"dreams/*.json", formRecord[Dream]},
	{"tunnels/token*.json", formRecord[TunnelToken]},
	{"tunnels/certificate*.json", formRecord[TunnelCertificate]},
	{"user_profiles/profile_*.json", formRecord[UserProfile]},
	{"user_profiles/enrollment_url*.json", formRecord[UserProfileEnrollmentURL]},
	{"user_profiles/action_url.json", formRecord[UserProfileActionURL]},
	{"user_profiles/deleted.json", formRecord[UserProfileDeleted]},
	{"user_profiles/data_controls_*.json", formRecord[UserProfileDataControls]},
	{"vaults/vault*.json", formRecord[Vault]},
	{"vaults/credential_*.json", formRecord[VaultCredential]},
	{"vaults/validation_*.json", formRecord[VaultCredentialValidation]},
	{"webhooks/*.json", formRecord[Webhook]},
}

// notResponseFixtures are the golden files that are not one response
// record: request bodies and headers, lists of deletion markers, a page.
var notResponseFixtures = []string{
	"*/*.request.json", "*/*.headers.json", "requests/*.json", "sessions/events/request_*.json",
	"memory_stores/deleted.json", "vaults/deleted.json", "memory_stores/list_items.json",
}

// formDoc is one response document with its decoder.
type formDoc struct {
	name   string
	data   []byte
	decode formDecoder
}

// responseDocs lists every response document on file: the golden records,
// the events of the project's streams, and the recorded layer's messages,
// other responses and stream events when it is there.
func responseDocs(t *testing.T) []formDoc {
	t.Helper()
	var docs []formDoc
	dir := filepath.Join(fixtures.Dir(t), "golden")
	for _, file := range fixtures.Project(t, "golden/*/*.json") {
		docs = appendGolden(t, docs, dir, file)
	}
	for _, file := range fixtures.Project(t, "golden/*/*/*.json") {
		docs = appendGolden(t, docs, dir, file)
	}
	messageEvents := func(file string) {
		for i, ev := range splitSSE(t, fixtures.Read(t, file)) {
			if ev.name == "error" || ev.name == "ping" {
				continue
			}
			name := ev.name
			docs = append(docs, formDoc{fmt.Sprintf("%s#%d", fixtures.Name(file), i), ev.data,
				func(data []byte) (any, error) { return decodeMessageStreamEvent(name, data) }})
		}
	}
	for _, file := range fixtures.Project(t, "streams/*.sse") {
		messageEvents(file)
	}
	for _, file := range fixtures.Recorded(t, "streams/*.sse") {
		messageEvents(file)
	}
	for _, file := range fixtures.Recorded(t, "messages/*.json") {
		if !strings.HasSuffix(file, ".request.json") && !strings.HasSuffix(file, ".headers.json") {
			docs = append(docs, formDoc{fixtures.Name(file), fixtures.Read(t, file), formRecord[Message]})
		}
	}
	for _, file := range fixtures.Recorded(t, "other/*.json") {
		var decode formDecoder
		switch base := filepath.Base(file); {
		case strings.HasSuffix(base, ".request.json"):
		case strings.Contains(base, "count_tokens"):
			decode = formRecord[MessageTokensCount]
		case strings.Contains(base, "files_delete"):
			decode = formRecord[FileDeleted]
		case strings.Contains(base, "files_"):
			decode = formRecord[FileMetadata]
		}
		if decode != nil {
			docs = append(docs, formDoc{fixtures.Name(file), fixtures.Read(t, file), decode})
		}
	}
	return docs
}

func appendGolden(t *testing.T, docs []formDoc, dir, file string) []formDoc {
	t.Helper()
	rel, err := filepath.Rel(dir, file)
	require.NoError(t, err)
	rel = filepath.ToSlash(rel)
	for _, p := range notResponseFixtures {
		if ok, _ := filepath.Match(p, rel); ok {
			return docs
		}
	}
	for _, f := range responseFixtures {
		if ok, _ := filepath.Match(f.pattern, rel); ok {
			return append(docs, formDoc{rel, fixtures.Read(t, file), f.decode})
		}
	}
	t.Errorf("golden/%s: no response type in responseFixtures (nor listed in notResponseFixtures)", rel)
	return docs
}

// checkForm decodes data, marshals it back and requires the same JSON
// value, the same text for every timestamp, and, decoded again, the same
// Go value. ok is false when data does not decode (a derived document may
// not: a union member left out, say).
func checkForm(t *testing.T, what string, data []byte, decode formDecoder) (ok bool) {
	t.Helper()
	v, err := decode(data)
	if err != nil {
		return false
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Errorf("%s: marshal: %v", what, err)
		return true
	}
	if d := cmp.Diff(jsonAny(t, data), jsonAny(t, out)); d != "" {
		t.Errorf("%s: decode → marshal differs (-in +out):\n%s\nin:  %s\nout: %s", what, d, truncate(data), truncate(out))
		return true
	}
	for _, ts := range timestampText.FindAll(data, -1) {
		if n, m := bytes.Count(data, ts), bytes.Count(out, ts); n != m {
			t.Errorf("%s: timestamp %s appears %d times in, %d times out:\n%s", what, ts, n, m, truncate(out))
		}
	}
	again, err := decode(out)
	if err != nil {
		t.Errorf("%s: decoding the marshalled value: %v", what, err)
		return true
	}
	if d := cmp.Diff(v, again, formCmp...); d != "" {
		t.Errorf("%s: decode(marshal(decode(x))) differs (-first +again):\n%s", what, d)
	}
	return true
}

// formCmp compares decoded values: unexported fields too (Update), raw
// JSON by value (white space aside: the encoder compacts it).
var formCmp = []cmp.Option{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmp.Comparer(sameRawJSON[json.RawMessage]),
	cmp.Comparer(sameRawJSON[InputSchema]),
}

func sameRawJSON[T ~[]byte](a, b T) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// timestampText matches a quoted RFC 3339 timestamp.
var timestampText = regexp.MustCompile(`"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)"`)

// TestResponseFormLossless: every response document on file decodes and
// marshals back to itself.
func TestResponseFormLossless(t *testing.T) {
	for _, doc := range responseDocs(t) {
		if !checkForm(t, doc.name, doc.data, doc.decode) {
			t.Errorf("%s: does not decode", doc.name)
		}
	}
}

// TestResponseFormTimestamps: every timestamp of every response document,
// written in another RFC 3339 form (a trailing zero in the fraction, or
// "+00:00" for "Z"), is marshalled back byte for byte.
func TestResponseFormTimestamps(t *testing.T) {
	n := 0
	for _, doc := range responseDocs(t) {
		if !timestampText.Match(doc.data) {
			continue
		}
		for _, form := range []func(m [][]byte) string{
			func(m [][]byte) string { // ….0Z, ….5000Z
				if len(m[2]) == 0 {
					return fmt.Sprintf(`"%s.0%s"`, m[1], m[3])
				}
				return fmt.Sprintf(`"%s%s0%s"`, m[1], m[2], m[3])
			},
			func(m [][]byte) string { // +00:00 for Z
				if string(m[3]) == "Z" {
					return fmt.Sprintf(`"%s%s+00:00"`, m[1], m[2])
				}
				return string(m[0])
			},
		} {
			data := timestampText.ReplaceAllFunc(doc.data, func(b []byte) []byte {
				return []byte(form(timestampText.FindSubmatch(b)))
			})
			if checkForm(t, doc.name+" (timestamps rewritten)", data, doc.decode) {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no document with a timestamp")
	}
}

// TestResponseFormMembers: each member of every object of every response
// document, left out in turn and null in turn, is marshalled back as it
// came. A derived document that does not decode is skipped ("type" members
// are left alone: they choose the Go type).
func TestResponseFormMembers(t *testing.T) {
	decoded := 0
	for _, doc := range responseDocs(t) {
		if len(doc.data) > 16<<10 {
			continue // large recorded bodies: their members are covered by the smaller ones
		}
		root := jsonAny(t, doc.data)
		eachMember(root, "", func(path string, obj map[string]any, key string) {
			if key == "type" || isMapEntry(path) {
				return
			}
			value := obj[key]
			delete(obj, key)
			if checkForm(t, doc.name+": without "+path, formJSON(t, root), doc.decode) {
				decoded++
			}
			obj[key] = nil
			if value != nil && checkForm(t, doc.name+": null "+path, formJSON(t, root), doc.decode) {
				decoded++
			}
			obj[key] = value
		})
	}
	if decoded == 0 {
		t.Fatal("no derived document decoded")
	}
}

// isMapEntry reports whether path names an entry of a map (metadata, trust
// grants, a program's tiers and features, a data control's regions): not a
// member of a record, so not the codec's to keep; the service never sends
// such an entry null or leaves one out of a record.
func isMapEntry(path string) bool {
	parent := path[:strings.LastIndexByte(path, '.')]
	for _, m := range []string{".metadata", ".trust_grants", ".tiers", ".features", ".external_key_ids", ".buckets", ".status"} {
		if strings.HasSuffix(parent, m) {
			return true
		}
	}
	return false
}

// eachMember calls fn for every member of every object in v (depth first,
// names sorted), with its path; fn may change the member and must restore it.
func eachMember(v any, path string, fn func(path string, obj map[string]any, key string)) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fn(path+"."+k, v, k)
			eachMember(v[k], path+"."+k, fn)
		}
	case []any:
		for i, x := range v {
			eachMember(x, fmt.Sprintf("%s[%d]", path, i), fn)
		}
	}
}

func formJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
