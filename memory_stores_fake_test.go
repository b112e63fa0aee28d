package mms_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestMemoryStoresAgainstFake runs every memory-store operation against
// mmstest.
func TestMemoryStoresAgainstFake(t *testing.T) {
	now := fakeNow
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()

	a, err := c.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{Name: "notes", Description: "team notes", Metadata: map[string]string{"team": "a", "old": "x"}})
	require.NoError(t, err)
	if !strings.HasPrefix(a.ID, "memstore_") || a.Name != "notes" || a.Description != "team notes" || a.ArchivedAt != nil {
		t.Fatalf("created %+v", a)
	}
	if _, err := a.Created(); err != nil {
		t.Errorf("Created: %v", err)
	}
	now = now.Add(time.Minute)
	u, err := c.MemoryStores.Update(ctx, a.ID, mms.MemoryStoreUpdateParams{Name: mms.Set("n2"), Description: mms.Clear[string](),
		Metadata: mms.MetadataPatch{}.Delete("old").Set("team", "b")})
	if err != nil || u.Name != "n2" || u.Description != "" || !cmp.Equal(u.Metadata, map[string]string{"team": "b"}) {
		t.Fatalf("updated %+v %v", u, err)
	}
	if k, err := c.MemoryStores.Update(ctx, a.ID, mms.MemoryStoreUpdateParams{Name: mms.Clear[string]()}); err != nil || k.Name != "n2" {
		t.Errorf("cleared name: %+v %v", k, err)
	}
	if g, err := c.MemoryStores.Get(ctx, a.ID); err != nil || g.Name != "n2" {
		t.Errorf("Get: %+v %v", g, err)
	}
	now = now.Add(time.Minute)
	b, err := c.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{Name: "second"})
	require.NoError(t, err)
	if ar, err := c.MemoryStores.Archive(ctx, a.ID); err != nil || ar.ArchivedAt == nil {
		t.Fatalf("Archive: %+v %v", ar, err)
	}
	list := func(p mms.MemoryStoreListParams) []string {
		t.Helper()
		var ids []string
		for x, err := range c.MemoryStores.List(ctx, p) {
			require.NoError(t, err)
			ids = append(ids, x.ID)
		}
		return ids
	}
	for name, tt := range map[string]struct {
		p    mms.MemoryStoreListParams
		want []string
	}{
		"default":  {mms.MemoryStoreListParams{}, []string{b.ID}},
		"archived": {mms.MemoryStoreListParams{IncludeArchived: true, Limit: 1}, []string{b.ID, a.ID}},
		"before":   {mms.MemoryStoreListParams{IncludeArchived: true, CreatedBefore: fakeNow.Add(time.Second)}, []string{a.ID}},
		"after":    {mms.MemoryStoreListParams{IncludeArchived: true, CreatedAfter: now}, []string{b.ID}},
	} {
		if got := list(tt.p); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", name, got, tt.want)
		}
	}
	if d, err := c.MemoryStores.Delete(ctx, b.ID); err != nil || d.ID != b.ID {
		t.Errorf("Delete: %+v %v", d, err)
	}
	if _, err := c.MemoryStores.Get(ctx, b.ID); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get deleted: %v", err)
	}
	var apiErr *mms.Error
	if _, err := c.MemoryStores.Get(ctx, a.ID, option.WithoutEndpointBeta(mms.BetaAgentMemory)); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("without the beta: %v", err)
	}
}

// TestMemoriesAgainstFake runs every memory and version operation against
// mmstest with every request shape the SDK builds: views, prefixes and
// depth, a precondition failure and a path conflict matched with
// errors.Is, versions with their filters, and a redaction.
func TestMemoriesAgainstFake(t *testing.T) {
	now := fakeNow
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	store, err := c.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{Name: "notes"})
	require.NoError(t, err)
	mems := c.MemoryStores.Memories
	a, err := mems.Create(ctx, store.ID, mms.MemoryCreateParams{Path: "/notes/a.md", Content: "alpha", View: mms.MemoryViewFull})
	require.NoError(t, err)
	if a.Content == nil || *a.Content != "alpha" || a.ContentSHA256 != mms.ContentSHA256("alpha") || a.ContentSizeBytes != 5 || a.MemoryStoreID != store.ID {
		t.Fatalf("created %+v", a)
	}
	for _, p := range []string{"/notes/deep/b.md", "/top.md"} {
		if _, err := mems.Create(ctx, store.ID, mms.MemoryCreateParams{Path: p, Content: ""}); err != nil {
			t.Fatal(err)
		}
	}
	if g, err := mems.Get(ctx, store.ID, a.ID, mms.MemoryGetParams{}); err != nil || g.Content != nil || g.Path != "/notes/a.md" {
		t.Errorf("Get basic: %+v %v", g, err)
	}

	_, err = mems.Create(ctx, store.ID, mms.MemoryCreateParams{Path: "/notes/a.md", Content: "again"})
	if conflict, ok := mms.MemoryPathConflictOf(err); !errors.Is(err, mms.ErrMemoryPathConflict) || !ok ||
		conflict != (mms.MemoryPathConflict{MemoryID: a.ID, Path: "/notes/a.md"}) {
		t.Errorf("path conflict: %v %+v", err, conflict)
	}
	_, err = mems.Update(ctx, store.ID, a.ID, mms.MemoryUpdateParams{Content: mms.Ptr("beta"),
		Precondition: &mms.MemoryPrecondition{ContentSHA256: mms.ContentSHA256("stale")}})
	if !errors.Is(err, mms.ErrMemoryPreconditionFailed) {
		t.Errorf("stale precondition: %v", err)
	}
	now = now.Add(time.Minute)
	u, err := mems.Update(ctx, store.ID, a.ID, mms.MemoryUpdateParams{Content: mms.Ptr("beta"), Path: "/notes/b.md",
		Precondition: &mms.MemoryPrecondition{ContentSHA256: a.ContentSHA256}, View: mms.MemoryViewFull})
	if err != nil || *u.Content != "beta" || u.Path != "/notes/b.md" || u.MemoryVersionID == a.MemoryVersionID {
		t.Fatalf("updated %+v %v", u, err)
	}

	listed := func(p mms.MemoryListParams) []string {
		t.Helper()
		var out []string
		for item, err := range mems.List(ctx, store.ID, p) {
			require.NoError(t, err)
			switch v := item.(type) {
			case mms.Memory:
				out = append(out, v.Path)
				if (v.Content != nil) != (p.View == mms.MemoryViewFull) {
					t.Errorf("%s: content %v with view %q", v.Path, v.Content, p.View)
				}
			case mms.MemoryPrefix:
				out = append(out, "prefix "+v.Path)
			default:
				t.Errorf("item %#v", item)
			}
		}
		return out
	}
	for name, tt := range map[string]struct {
		p    mms.MemoryListParams
		want []string
	}{
		"all":         {mms.MemoryListParams{Limit: 1}, []string{"/notes/b.md", "/notes/deep/b.md", "/top.md"}},
		"depth 1":     {mms.MemoryListParams{Depth: 1}, []string{"prefix /notes/", "/top.md"}},
		"under notes": {mms.MemoryListParams{PathPrefix: "/notes/", Depth: 1, View: mms.MemoryViewFull, Limit: 20}, []string{"/notes/b.md", "prefix /notes/deep/"}},
	} {
		if got := listed(tt.p); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", name, got, tt.want)
		}
	}
	if page, err := mems.ListPage(ctx, store.ID, mms.MemoryListParams{Limit: 2}); err != nil || len(page.Data) != 2 || page.NextPage == nil {
		t.Errorf("ListPage: %+v %v", page, err)
	}

	if _, err := mems.Delete(ctx, store.ID, a.ID, mms.MemoryDeleteParams{ExpectedContentSHA256: a.ContentSHA256}); !errors.Is(err, mms.ErrMemoryPreconditionFailed) {
		t.Errorf("stale delete: %v", err)
	}
	if d, err := mems.Delete(ctx, store.ID, a.ID, mms.MemoryDeleteParams{ExpectedContentSHA256: mms.ContentSHA256("beta")}); err != nil || d.ID != a.ID {
		t.Fatalf("Delete: %+v %v", d, err)
	}

	vers := c.MemoryStores.Versions
	var ops []mms.MemoryVersionOperation
	var history []mms.MemoryVersionRecord
	for v, err := range vers.List(ctx, store.ID, mms.MemoryVersionListParams{MemoryID: a.ID, View: mms.MemoryViewFull, Limit: 1}) {
		require.NoError(t, err)
		ops = append(ops, v.Operation)
		history = append(history, v)
		if actor, ok := v.CreatedBy.(mms.APIActor); !ok || actor.APIKeyID == "" || strings.Contains(actor.APIKeyID, mmstest.DefaultAPIKey) {
			t.Errorf("created_by %#v", v.CreatedBy)
		}
	}
	if want := []mms.MemoryVersionOperation{mms.MemoryVersionDeleted, mms.MemoryVersionModified, mms.MemoryVersionCreated}; !cmp.Equal(ops, want) {
		t.Fatalf("operations %v, want %v", ops, want)
	}
	created := history[2]
	if created.Content == nil || *created.Content != "alpha" || *created.Path != "/notes/a.md" || *created.ContentSizeBytes != 5 {
		t.Errorf("created version %+v", created)
	}
	if deleted := history[0]; deleted.Content != nil || deleted.ContentSHA256 != nil || deleted.Path == nil {
		t.Errorf("deleted version %+v", deleted)
	}
	page, err := vers.ListPage(ctx, store.ID, mms.MemoryVersionListParams{Operation: mms.MemoryVersionCreated, APIKeyID: created.CreatedBy.(mms.APIActor).APIKeyID,
		CreatedAfter: fakeNow, CreatedBefore: fakeNow})
	if err != nil || len(page.Data) != 3 {
		t.Errorf("filtered page: %+v %v", page, err)
	}
	if page, err := vers.ListPage(ctx, store.ID, mms.MemoryVersionListParams{SessionID: "sesn_x", ServiceAccountID: "sa_x"}); err != nil || len(page.Data) != 0 {
		t.Errorf("actor filters: %+v %v", page, err)
	}
	r, err := vers.Redact(ctx, store.ID, created.ID)
	if err != nil || r.Content != nil || r.ContentSHA256 != nil || r.ContentSizeBytes != nil || r.Path != nil || r.RedactedAt == nil || r.RedactedBy == nil {
		t.Fatalf("redacted %+v %v", r, err)
	}
	if g, err := vers.Get(ctx, store.ID, created.ID, mms.MemoryVersionGetParams{View: mms.MemoryViewFull}); err != nil || g.Content != nil || g.RedactedAt == nil {
		t.Errorf("Get redacted: %+v %v", g, err)
	}
	if _, err := vers.Get(ctx, store.ID, "memver_nope", mms.MemoryVersionGetParams{}); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("unknown version: %v", err)
	}
}

// TestSessionsNeedMemoryStore: a session naming an archived memory store
// is refused, as one naming a missing store is.
func TestSessionsNeedMemoryStore(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	if _, err := c.MemoryStores.Archive(ctx, f.memoryStore); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{f.memoryStore, "memstore_nope"} {
		_, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env,
			Resources: []mms.SessionResourceParams{mms.MemoryStoreResourceParams{MemoryStoreID: id}}})
		if !errors.Is(err, mms.ErrNotFound) {
			t.Errorf("%s: %v", id, err)
		}
	}
}
