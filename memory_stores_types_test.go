package mms

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// TestMemoryStoreGoldenRoundTrip: every record of §2.2, every actor and
// list item kind, Unknown kinds and unknown members, nulls and absences,
// decode and re-encode losslessly.
func TestMemoryStoreGoldenRoundTrip(t *testing.T) {
	for _, file := range []string{"store.json", "store_minimal.json", "store_unknown.json"} {
		t.Run(file, func(t *testing.T) { roundTrip[MemoryStore](t, readGolden(t, "memory_stores", file), nil) })
	}
	for _, file := range []string{"memory_full.json", "memory_basic.json", "memory_empty_content.json"} {
		t.Run(file, func(t *testing.T) { roundTrip[Memory](t, readGolden(t, "memory_stores", file), nil) })
	}
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"version_created.json", nil},
		{"version_deleted.json", nil},
		{"version_redacted.json", nil},
		{"version_unknown.json", []string{".CreatedBy: UnknownMemoryVersionActor"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			roundTrip[MemoryVersionRecord](t, readGolden(t, "memory_stores", tt.file), tt.unknown)
		})
	}
	t.Run("list_items.json", func(t *testing.T) {
		data := readGolden(t, "memory_stores", "list_items.json")
		var page listPageWire[MemoryListItem]
		if err := json.Unmarshal(data, &page); err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, item := range page.Data {
			kinds = append(kinds, fmt.Sprintf("%T", item))
		}
		want := []string{"mms.Memory", "mms.MemoryPrefix", "mms.MemoryPrefix", "mms.UnknownMemoryListItem"}
		if !cmp.Equal(kinds, want) {
			t.Fatalf("items %v, want %v", kinds, want)
		}
		var raw struct{ Data []json.RawMessage }
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		for i, item := range page.Data {
			out, err := json.Marshal(item)
			require.NoError(t, err)
			requireJSONEqual(t, raw.Data[i], out)
		}
		if p := page.Data[2].(MemoryPrefix); p.Path != "/other/" || string(p.Extra["count"]) != "3" {
			t.Errorf("prefix with an unknown member %+v", p)
		}
	})
	t.Run("deleted.json", func(t *testing.T) {
		var pair [2]json.RawMessage
		if err := json.Unmarshal(readGolden(t, "memory_stores", "deleted.json"), &pair); err != nil {
			t.Fatal(err)
		}
		var s MemoryStoreDeleted
		var m MemoryDeleted
		if err := json.Unmarshal(pair[0], &s); err != nil || s.ID != "memstore_01" {
			t.Errorf("store deleted %+v %v", s, err)
		}
		if err := json.Unmarshal(pair[1], &m); err != nil || m.ID != "mem_01" {
			t.Errorf("memory deleted %+v %v", m, err)
		}
		for i, x := range []any{s, m} {
			out, err := json.Marshal(x)
			require.NoError(t, err)
			requireJSONEqual(t, pair[i], out)
		}
		if err := decodeInto(pair[1], &s); err == nil {
			t.Errorf("memory_deleted decoded as MemoryStoreDeleted")
		}
	})
}

// TestMemoryGoldenValues pins the typed values the goldens decode to:
// nulls and absences become nil, explicit nulls are remembered.
func TestMemoryGoldenValues(t *testing.T) {
	var full Memory
	if err := json.Unmarshal(readGolden(t, "memory_stores", "memory_full.json"), &full); err != nil {
		t.Fatal(err)
	}
	if full.Content == nil || *full.Content != "héllo" || full.ContentSHA256 != ContentSHA256("héllo") || full.ContentSizeBytes != 6 {
		t.Errorf("full %+v", full)
	}
	var basic Memory
	if err := json.Unmarshal(readGolden(t, "memory_stores", "memory_basic.json"), &basic); err != nil {
		t.Fatal(err)
	}
	if basic.Content != nil || string(basic.Extra["tags"]) != `["x"]` {
		t.Errorf("basic %+v", basic)
	}
	var store MemoryStore
	if err := json.Unmarshal(readGolden(t, "memory_stores", "store_minimal.json"), &store); err != nil {
		t.Fatal(err)
	}
	if store.Description != "" || store.Metadata != nil || store.ArchivedAt != nil {
		t.Errorf("minimal store %+v", store)
	}
	var redacted, unknown MemoryVersionRecord
	if err := json.Unmarshal(readGolden(t, "memory_stores", "version_redacted.json"), &redacted); err != nil {
		t.Fatal(err)
	}
	if redacted.Path != nil || redacted.ContentSHA256 != nil || redacted.ContentSizeBytes != nil || redacted.RedactedAt == nil ||
		!cmp.Equal(redacted.CreatedBy, MemoryVersionActor(ServiceAccountActor{ServiceAccountID: "svcacct_01"})) ||
		!cmp.Equal(redacted.RedactedBy, MemoryVersionActor(UserActor{UserID: "user_01"})) {
		t.Errorf("redacted %+v", redacted)
	}
	if err := json.Unmarshal(readGolden(t, "memory_stores", "version_unknown.json"), &unknown); err != nil {
		t.Fatal(err)
	}
	if unknown.Operation != "restored" || unknown.CreatedBy.(UnknownMemoryVersionActor).Type != "scheduler_actor" ||
		string(unknown.RedactedBy.(APIActor).Extra["label"]) != `"ci"` || unknown.Content != nil || unknown.Path != nil {
		t.Errorf("unknown %+v", unknown)
	}
}

// TestMemoryRequestForms pins the request bodies: content always sent
// ("" included), the precondition's type, the view never in the body.
func TestMemoryRequestForms(t *testing.T) {
	sha := ContentSHA256("x")
	for _, tt := range []struct {
		name string
		in   any
		want string
	}{
		{"store create", MemoryStoreCreateParams{Name: "n"}, `{"name":"n"}`},
		{"store create full", MemoryStoreCreateParams{Name: "n", Description: "d", Metadata: map[string]string{"k": "v"}},
			`{"name":"n","description":"d","metadata":{"k":"v"}}`},
		{"store update", MemoryStoreUpdateParams{Name: Set("m"), Description: Set(""), Metadata: MetadataPatch{"a": nil}},
			`{"name":"m","description":"","metadata":{"a":null}}`},
		{"store update clears", MemoryStoreUpdateParams{Name: Clear[string](), Description: Clear[string]()}, `{"name":null,"description":null}`},
		{"empty store update", MemoryStoreUpdateParams{}, `{}`},
		{"memory create empty content", MemoryCreateParams{Path: "/a", View: MemoryViewFull}, `{"path":"/a","content":""}`},
		{"memory create", MemoryCreateParams{Path: "/a", Content: "c"}, `{"path":"/a","content":"c"}`},
		{"memory update", MemoryUpdateParams{Content: Ptr("c"), Path: "/b", Precondition: &MemoryPrecondition{ContentSHA256: sha}, View: MemoryViewBasic},
			`{"content":"c","path":"/b","precondition":{"type":"content_sha256","content_sha256":"` + sha + `"}}`},
		{"memory update empties", MemoryUpdateParams{Content: Ptr("")}, `{"content":""}`},
		{"empty memory update", MemoryUpdateParams{}, `{}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), got)
			body, err := codec.MarshalRequest(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), body)
			back := reflect.New(reflect.TypeOf(tt.in))
			if err := json.Unmarshal(got, back.Interface()); err != nil {
				t.Fatal(err)
			}
			again, err := json.Marshal(back.Elem().Interface())
			require.NoError(t, err)
			requireJSONEqual(t, got, again)
		})
	}
}

func FuzzMemoryStore(f *testing.F) {
	for _, name := range []string{"store.json", "store_minimal.json", "store_unknown.json"} {
		f.Add(readGolden(f, "memory_stores", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[MemoryStore](t, data) })
}

func FuzzMemory(f *testing.F) {
	for _, name := range []string{"memory_full.json", "memory_basic.json", "memory_empty_content.json"} {
		f.Add(readGolden(f, "memory_stores", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[Memory](t, data) })
}

func FuzzMemoryVersionRecord(f *testing.F) {
	for _, name := range []string{"version_created.json", "version_deleted.json", "version_redacted.json", "version_unknown.json"} {
		f.Add(readGolden(f, "memory_stores", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[MemoryVersionRecord](t, data) })
}

func FuzzMemoryListItem(f *testing.F) {
	fuzzDecoder(f, memoryListItemUnion.Decode, `{"type":"memory_prefix","path":"/a/"}`,
		`{"type":"memory","id":"mem_1","memory_store_id":"s","path":"/a","content":null,"content_sha256":"x","content_size_bytes":0,"memory_version_id":"v","created_at":"t","updated_at":"t"}`)
}

func FuzzActor(f *testing.F) {
	fuzzDecoder(f, actorUnion.Decode, `{"type":"session_actor","session_id":"s"}`, `{"type":"api_actor","api_key_id":"k"}`,
		`{"type":"user_actor","user_id":"u"}`, `{"type":"service_account_actor","service_account_id":"a"}`)
}

// TestMemoryPathConflictFixture reads the conflict's members from the
// project's error fixture.
func TestMemoryPathConflictFixture(t *testing.T) {
	e := newAPIError(409, nil, readGolden(t, "errors", "409__memory_path_conflict_error.json"), 1)
	got, ok := MemoryPathConflictOf(e)
	if want := (MemoryPathConflict{MemoryID: "mem_011CW9mem0000000000000001", Path: "/notes/a.md"}); !ok || got != want {
		t.Errorf("MemoryPathConflictOf = %+v, %v; want %+v", got, ok, want)
	}
}
