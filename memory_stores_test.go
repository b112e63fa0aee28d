package mms_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

const (
	testMemoryStoreJSON = `{"id":"memstore_1","type":"memory_store","name":"n","description":"","metadata":{},` +
		`"created_at":"2026-07-22T10:00:00Z","updated_at":"2026-07-22T10:00:00Z","archived_at":null}`
	testMemoryJSON = `{"id":"mem_1","type":"memory","memory_store_id":"memstore_1","path":"/a.md","content":null,` +
		`"content_sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","content_size_bytes":0,` +
		`"memory_version_id":"memver_1","created_at":"2026-07-22T10:00:00Z","updated_at":"2026-07-22T10:00:00Z"}`
	testMemoryVersionJSON = `{"id":"memver_1","type":"memory_version","memory_id":"mem_1","memory_store_id":"memstore_1",` +
		`"operation":"created","created_at":"2026-07-22T10:00:00Z","content":null,"content_sha256":null,` +
		`"content_size_bytes":null,"path":null,"created_by":{"type":"api_actor","api_key_id":"apikey_1"},` +
		`"redacted_at":"2026-07-22T11:00:00Z","redacted_by":{"type":"user_actor","user_id":"user_1"}}`
)

// sha is a well-formed content hash.
var sha = mms.ContentSHA256("x")

// TestMemoryStoresWire checks every memory-store, memory and version
// operation against a scripted server: the agent-memory beta (and not the
// managed-agents one) merged with a client beta, methods, paths, queries
// and bodies.
func TestMemoryStoresWire(t *testing.T) {
	storePage := `{"data":[` + testMemoryStoreJSON + `],"next_page":null}`
	memPage := `{"data":[` + testMemoryJSON + `,{"type":"memory_prefix","path":"/dir/"}],"next_page":null}`
	verPage := `{"data":[` + testMemoryVersionJSON + `],"next_page":null}`
	t0 := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	runBetaWireCases(t, mms.BetaAgentMemory, []wireCase{
		{"create store", reply{body: testMemoryStoreJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{Name: "n", Description: "d", Metadata: map[string]string{"k": "v"}})
			return err
		}, "POST", "/v1/memory_stores", "", `{"name":"n","description":"d","metadata":{"k":"v"}}`, nil},
		{"get store", reply{body: testMemoryStoreJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Get(ctx, "memstore_1")
			return err
		}, "GET", "/v1/memory_stores/memstore_1", "", "", nil},
		{"update store", reply{body: testMemoryStoreJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Update(ctx, "memstore_1", mms.MemoryStoreUpdateParams{Name: mms.Set("m"), Description: mms.Clear[string](),
				Metadata: mms.MetadataPatch{}.Delete("k").Set("n", "1")})
			return err
		}, "POST", "/v1/memory_stores/memstore_1", "", `{"name":"m","description":null,"metadata":{"k":null,"n":"1"}}`, nil},
		{"archive store", reply{body: testMemoryStoreJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Archive(ctx, "memstore_1")
			return err
		}, "POST", "/v1/memory_stores/memstore_1/archive", "", "", nil},
		{"delete store", reply{body: `{"id":"memstore_1","type":"memory_store_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			d, err := c.MemoryStores.Delete(ctx, "memstore_1")
			if err == nil && d.ID != "memstore_1" {
				err = fmt.Errorf("deleted %+v", d)
			}
			return err
		}, "DELETE", "/v1/memory_stores/memstore_1", "", "", nil},
		{"list stores", reply{body: storePage}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.MemoryStores.List(ctx, mms.MemoryStoreListParams{Limit: 5, Page: mms.Cursor{Token: "p"}, IncludeArchived: true,
				CreatedAfter: t0, CreatedBefore: t0.Add(time.Hour)}))
		}, "GET", "/v1/memory_stores", "created_at%5Bgte%5D=2026-07-01T00%3A00%3A00Z&created_at%5Blte%5D=2026-07-01T01%3A00%3A00Z&include_archived=true&limit=5&page=p", "", nil},
		{"list stores page", reply{body: storePage}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.ListPage(ctx, mms.MemoryStoreListParams{})
			return err
		}, "GET", "/v1/memory_stores", "", "", nil},
		{"create memory", reply{body: testMemoryJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Create(ctx, "memstore_1", mms.MemoryCreateParams{Path: "/a.md", Content: "", View: mms.MemoryViewFull})
			return err
		}, "POST", "/v1/memory_stores/memstore_1/memories", "view=full", `{"path":"/a.md","content":""}`, nil},
		{"get memory", reply{body: testMemoryJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Get(ctx, "memstore_1", "mem_1", mms.MemoryGetParams{View: mms.MemoryViewBasic})
			return err
		}, "GET", "/v1/memory_stores/memstore_1/memories/mem_1", "view=basic", "", nil},
		{"update memory", reply{body: testMemoryJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Update(ctx, "memstore_1", "mem_1", mms.MemoryUpdateParams{Content: mms.Ptr(""), Path: "/b.md",
				Precondition: &mms.MemoryPrecondition{ContentSHA256: sha}})
			return err
		}, "POST", "/v1/memory_stores/memstore_1/memories/mem_1", "",
			`{"content":"","path":"/b.md","precondition":{"type":"content_sha256","content_sha256":"` + sha + `"}}`, nil},
		{"delete memory", reply{body: `{"id":"mem_1","type":"memory_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			d, err := c.MemoryStores.Memories.Delete(ctx, "memstore_1", "mem_1", mms.MemoryDeleteParams{ExpectedContentSHA256: sha})
			if err == nil && d.ID != "mem_1" {
				err = fmt.Errorf("deleted %+v", d)
			}
			return err
		}, "DELETE", "/v1/memory_stores/memstore_1/memories/mem_1", "expected_content_sha256=" + sha, "", nil},
		{"delete memory unconditionally", reply{body: `{"id":"mem_1","type":"memory_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Delete(ctx, "memstore_1", "mem_1", mms.MemoryDeleteParams{})
			return err
		}, "DELETE", "/v1/memory_stores/memstore_1/memories/mem_1", "", "", nil},
		{"list memories", reply{body: memPage}, func(ctx context.Context, c *mms.Client) error {
			var kinds []string
			for item, err := range c.MemoryStores.Memories.List(ctx, "memstore_1", mms.MemoryListParams{Limit: 20, PathPrefix: "/", Depth: 1, View: mms.MemoryViewFull}) {
				if err != nil {
					return err
				}
				kinds = append(kinds, fmt.Sprintf("%T", item))
			}
			if want := []string{"mms.Memory", "mms.MemoryPrefix"}; !cmp.Equal(kinds, want) {
				return fmt.Errorf("items %v, want %v", kinds, want)
			}
			return nil
		}, "GET", "/v1/memory_stores/memstore_1/memories", "depth=1&limit=20&path_prefix=%2F&view=full", "", nil},
		{"list memories page", reply{body: memPage}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.ListPage(ctx, "memstore_1", mms.MemoryListParams{})
			return err
		}, "GET", "/v1/memory_stores/memstore_1/memories", "", "", nil},
		{"get version", reply{body: testMemoryVersionJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Versions.Get(ctx, "memstore_1", "memver_1", mms.MemoryVersionGetParams{View: mms.MemoryViewFull})
			return err
		}, "GET", "/v1/memory_stores/memstore_1/memory_versions/memver_1", "view=full", "", nil},
		{"redact version", reply{body: testMemoryVersionJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Versions.Redact(ctx, "memstore_1", "memver_1")
			return err
		}, "POST", "/v1/memory_stores/memstore_1/memory_versions/memver_1/redact", "", "", nil},
		{"list versions", reply{body: verPage}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.MemoryStores.Versions.List(ctx, "memstore_1", mms.MemoryVersionListParams{Limit: 3, Page: mms.Cursor{Token: "p"},
				MemoryID: "mem_1", Operation: mms.MemoryVersionModified, SessionID: "sesn_1", APIKeyID: "apikey_1", ServiceAccountID: "sa_1",
				CreatedAfter: t0, CreatedBefore: t0, View: mms.MemoryViewBasic}))
		}, "GET", "/v1/memory_stores/memstore_1/memory_versions",
			"api_key_id=apikey_1&created_at%5Bgte%5D=2026-07-01T00%3A00%3A00Z&created_at%5Blte%5D=2026-07-01T00%3A00%3A00Z&limit=3" +
				"&memory_id=mem_1&operation=modified&page=p&service_account_id=sa_1&session_id=sesn_1&view=basic", "", nil},
		{"list versions page", reply{body: verPage}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Versions.ListPage(ctx, "memstore_1", mms.MemoryVersionListParams{})
			return err
		}, "GET", "/v1/memory_stores/memstore_1/memory_versions", "", "", nil},
	})
}

// TestMemoryStoresWorkspaceAndBeta: a per-call workspace arrives as its
// header, a client-level beta header is merged with the agent-memory
// beta, and the default view sends no query.
func TestMemoryStoresWorkspaceAndBeta(t *testing.T) {
	srv := newScriptServer(t, reply{body: testMemoryJSON})
	c := newTestClient(t, srv, option.WithHeader("vendor-beta", "files-api-2025-04-14"))
	if _, err := c.MemoryStores.Memories.Get(context.Background(), "memstore_1", "mem_1", mms.MemoryGetParams{}, option.WithWorkspaceID("wrkspc_9")); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if w := r.header.Get("Vendor-Workspace-Id"); w != "wrkspc_9" {
		t.Errorf("workspace header %q", w)
	}
	if b := r.header.Values("Vendor-Beta"); !cmp.Equal(b, []string{"files-api-2025-04-14," + mms.BetaAgentMemory}) {
		t.Errorf("vendor-beta %q", b)
	}
	if r.query != "" {
		t.Errorf("query %q for the default view", r.query)
	}
}

// TestMemoryStoreValidation: every rule of the memory-store, memory and
// version params on both sides of each limit, and the path ids; a broken
// rule sends nothing.
func TestMemoryStoreValidation(t *testing.T) {
	long := "/" + strings.Repeat("p", 1023)
	pairs := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprint("k", i)] = "v"
		}
		return m
	}
	createStore := func(p mms.MemoryStoreCreateParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error { _, err := c.MemoryStores.Create(ctx, p); return err }
	}
	updateStore := func(p mms.MemoryStoreUpdateParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Update(ctx, "memstore_1", p)
			return err
		}
	}
	listStores := func(p mms.MemoryStoreListParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error { _, err := c.MemoryStores.ListPage(ctx, p); return err }
	}
	create := func(p mms.MemoryCreateParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Create(ctx, "memstore_1", p)
			return err
		}
	}
	update := func(p mms.MemoryUpdateParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Update(ctx, "memstore_1", "mem_1", p)
			return err
		}
	}
	list := func(p mms.MemoryListParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.ListPage(ctx, "memstore_1", p)
			return err
		}
	}
	listVersions := func(p mms.MemoryVersionListParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Versions.ListPage(ctx, "memstore_1", p)
			return err
		}
	}
	del := func(want string) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Delete(ctx, "memstore_1", "mem_1", mms.MemoryDeleteParams{ExpectedContentSHA256: want})
			return err
		}
	}
	t0 := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		reply string
		do    func(context.Context, *mms.Client) error
		field string
	}{
		{"name 255", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: strings.Repeat("é", 255)}), ""},
		{"name 256", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: strings.Repeat("é", 256)}), "name"},
		{"name empty", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{}), "name"},
		{"name control", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: "a\x7fb"}), "name"},
		{"name tab", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: "a\tb"}), "name"},
		{"description 1024", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: "n", Description: strings.Repeat("d", 1024)}), ""},
		{"description 1025", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: "n", Description: strings.Repeat("d", 1025)}), "description"},
		{"metadata 16", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: "n", Metadata: pairs(16)}), ""},
		{"metadata 17", testMemoryStoreJSON, createStore(mms.MemoryStoreCreateParams{Name: "n", Metadata: pairs(17)}), "metadata"},
		{"update name 255", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Name: mms.Set(strings.Repeat("n", 255))}), ""},
		{"update name 256", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Name: mms.Set(strings.Repeat("n", 256))}), "name"},
		{"update name empty", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Name: mms.Set("")}), "name"},
		{"update name control", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Name: mms.Set("a\nb")}), "name"},
		{"update description 1024", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Description: mms.Set(strings.Repeat("d", 1024))}), ""},
		{"update description 1025", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Description: mms.Set(strings.Repeat("d", 1025))}), "description"},
		{"update metadata value 512", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 512))}), ""},
		{"update metadata value 513", testMemoryStoreJSON, updateStore(mms.MemoryStoreUpdateParams{Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 513))}), "metadata.k"},
		{"update store id empty", testMemoryStoreJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Update(ctx, "", mms.MemoryStoreUpdateParams{})
			return err
		}, "memory_store_id"},
		{"store id dot dot", testMemoryStoreJSON, func(ctx context.Context, c *mms.Client) error { _, err := c.MemoryStores.Get(ctx, ".."); return err }, "memory_store_id"},
		{"list stores limit 100", `{"data":[],"next_page":null}`, listStores(mms.MemoryStoreListParams{Limit: 100}), ""},
		{"list stores limit 101", `{"data":[],"next_page":null}`, listStores(mms.MemoryStoreListParams{Limit: 101}), "limit"},
		{"list stores equal bounds", `{"data":[],"next_page":null}`, listStores(mms.MemoryStoreListParams{CreatedAfter: t0, CreatedBefore: t0}), ""},
		{"list stores crossed bounds", `{"data":[],"next_page":null}`, listStores(mms.MemoryStoreListParams{CreatedAfter: t0.Add(time.Second), CreatedBefore: t0}), "created_at[gte]"},

		{"path 1024 bytes", testMemoryJSON, create(mms.MemoryCreateParams{Path: long}), ""},
		{"path 1025 bytes", testMemoryJSON, create(mms.MemoryCreateParams{Path: long + "p"}), "path"},
		{"path multibyte 1024 bytes", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/" + strings.Repeat("é", 511) + "p"}), ""},
		{"path multibyte 1025 bytes", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/" + strings.Repeat("é", 512)}), "path"},
		{"path empty", testMemoryJSON, create(mms.MemoryCreateParams{}), "path"},
		{"path relative", testMemoryJSON, create(mms.MemoryCreateParams{Path: "a.md"}), "path"},
		{"path root", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/"}), "path"},
		{"path one segment", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a"}), ""},
		{"path empty segment", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a//b"}), "path"},
		{"path trailing slash", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a/"}), "path"},
		{"path dot", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/./a"}), "path"},
		{"path dot dot", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a/.."}), "path"},
		{"path dots in a name", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a/...b"}), ""},
		{"path control", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a\x00"}), "path"},
		{"content 102400", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a", Content: strings.Repeat("c", 102400)}), ""},
		{"content 102401", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a", Content: strings.Repeat("c", 102401)}), "content"},
		{"content multibyte 102401 bytes", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a", Content: strings.Repeat("é", 51200) + "c"}), "content"},
		{"view full", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a", View: mms.MemoryViewFull}), ""},
		{"view other", testMemoryJSON, create(mms.MemoryCreateParams{Path: "/a", View: "all"}), "view"},
		{"update nothing", testMemoryJSON, update(mms.MemoryUpdateParams{}), ""},
		{"update content 102400", testMemoryJSON, update(mms.MemoryUpdateParams{Content: mms.Ptr(strings.Repeat("c", 102400))}), ""},
		{"update content 102401", testMemoryJSON, update(mms.MemoryUpdateParams{Content: mms.Ptr(strings.Repeat("c", 102401))}), "content"},
		{"update path", testMemoryJSON, update(mms.MemoryUpdateParams{Path: "/b/c"}), ""},
		{"update path dot dot", testMemoryJSON, update(mms.MemoryUpdateParams{Path: "/b/../c"}), "path"},
		{"precondition ok", testMemoryJSON, update(mms.MemoryUpdateParams{Precondition: &mms.MemoryPrecondition{ContentSHA256: sha}}), ""},
		{"precondition 63", testMemoryJSON, update(mms.MemoryUpdateParams{Precondition: &mms.MemoryPrecondition{ContentSHA256: sha[:63]}}), "precondition.content_sha256"},
		{"precondition 65", testMemoryJSON, update(mms.MemoryUpdateParams{Precondition: &mms.MemoryPrecondition{ContentSHA256: sha + "0"}}), "precondition.content_sha256"},
		{"precondition upper case", testMemoryJSON, update(mms.MemoryUpdateParams{Precondition: &mms.MemoryPrecondition{ContentSHA256: strings.ToUpper(sha)}}), "precondition.content_sha256"},
		{"precondition empty", testMemoryJSON, update(mms.MemoryUpdateParams{Precondition: &mms.MemoryPrecondition{}}), "precondition.content_sha256"},
		{"update view", testMemoryJSON, update(mms.MemoryUpdateParams{View: "x"}), "view"},
		{"get view", testMemoryJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Get(ctx, "memstore_1", "mem_1", mms.MemoryGetParams{View: "FULL"})
			return err
		}, "view"},
		{"memory id empty", testMemoryJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Memories.Get(ctx, "memstore_1", "", mms.MemoryGetParams{})
			return err
		}, "memory_id"},
		{"delete expected ok", `{"id":"mem_1","type":"memory_deleted"}`, del(sha), ""},
		{"delete expected bad", `{"id":"mem_1","type":"memory_deleted"}`, del("abc"), "expected_content_sha256"},
		{"list limit 100", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{Limit: 100}), ""},
		{"list limit 101", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{Limit: 101}), "limit"},
		{"list full limit 20", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{Limit: 20, View: mms.MemoryViewFull}), ""},
		{"list full limit 21", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{Limit: 21, View: mms.MemoryViewFull}), "limit"},
		{"list prefix with slash", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{PathPrefix: "/a/"}), ""},
		{"list prefix without slash", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{PathPrefix: "/a"}), "path_prefix"},
		{"list depth 0", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{Depth: 0}), ""},
		{"list depth -1", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{Depth: -1}), "depth"},
		{"list view", `{"data":[],"next_page":null}`, list(mms.MemoryListParams{View: "x"}), "view"},
		{"versions limit 100", `{"data":[],"next_page":null}`, listVersions(mms.MemoryVersionListParams{Limit: 100}), ""},
		{"versions limit 101", `{"data":[],"next_page":null}`, listVersions(mms.MemoryVersionListParams{Limit: 101}), "limit"},
		{"versions crossed bounds", `{"data":[],"next_page":null}`, listVersions(mms.MemoryVersionListParams{CreatedAfter: t0.Add(time.Second), CreatedBefore: t0}), "created_at[gte]"},
		{"versions view", `{"data":[],"next_page":null}`, listVersions(mms.MemoryVersionListParams{View: "x"}), "view"},
		{"version id empty", testMemoryVersionJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Versions.Redact(ctx, "memstore_1", "")
			return err
		}, "memory_version_id"},
		{"version get view", testMemoryVersionJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.MemoryStores.Versions.Get(ctx, "memstore_1", "memver_1", mms.MemoryVersionGetParams{View: "x"})
			return err
		}, "view"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: tt.reply})
			c := newTestClient(t, srv)
			checkAgentValidation(t, tt.do(context.Background(), c), tt.field, len(srv.requests()))
		})
	}
}

// TestMemoryListValidationInIterator: List reports a broken rule when
// ranged, and sends nothing.
func TestMemoryListValidationInIterator(t *testing.T) {
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	for name, err := range map[string]error{
		"stores":   drain(c.MemoryStores.List(ctx, mms.MemoryStoreListParams{Limit: -1})),
		"memories": drain(c.MemoryStores.Memories.List(ctx, "memstore_1", mms.MemoryListParams{PathPrefix: "x"})),
		"bad id":   drain(c.MemoryStores.Memories.List(ctx, "", mms.MemoryListParams{})),
		"versions": drain(c.MemoryStores.Versions.List(ctx, "..", mms.MemoryVersionListParams{})),
	} {
		if !errors.Is(err, mms.ErrInvalidParams) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestMemoryErrors: the memory error types match their sentinels (and no
// other), and a path conflict's members are read from the body.
func TestMemoryErrors(t *testing.T) {
	body := func(typ, extra string) string {
		return `{"type":"error","error":{"type":"` + typ + `","message":"m"` + extra + `},"request_id":"req_1"}`
	}
	sentinels := []error{mms.ErrMemoryPreconditionFailed, mms.ErrMemoryPathConflict, mms.ErrConflict, mms.ErrInvalidRequest}
	for _, tt := range []struct {
		name     string
		body     string
		want     error
		conflict *mms.MemoryPathConflict
	}{
		{"precondition", body("memory_precondition_failed_error", ""), mms.ErrMemoryPreconditionFailed, nil},
		{"path conflict", body("memory_path_conflict_error", `,"conflicting_memory_id":"mem_2","conflicting_path":"/a.md"`),
			mms.ErrMemoryPathConflict, &mms.MemoryPathConflict{MemoryID: "mem_2", Path: "/a.md"}},
		{"path conflict without members", body("memory_path_conflict_error", ""), mms.ErrMemoryPathConflict, &mms.MemoryPathConflict{}},
		{"conflict", body("conflict_error", ""), mms.ErrConflict, nil},
		{"other 409", body("invalid_request_error", ""), mms.ErrInvalidRequest, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{status: http.StatusConflict, body: tt.body})
			c := newTestClient(t, srv, option.WithMaxRetries(0))
			_, err := c.MemoryStores.Memories.Create(context.Background(), "memstore_1", mms.MemoryCreateParams{Path: "/a.md"})
			for _, s := range sentinels {
				if got := errors.Is(err, s); got != (s == tt.want) {
					t.Errorf("errors.Is(%v, %v) = %v", err, s, got)
				}
			}
			got, ok := mms.MemoryPathConflictOf(fmt.Errorf("wrapped: %w", err))
			if ok != (tt.conflict != nil) || ok && got != *tt.conflict {
				t.Errorf("MemoryPathConflictOf = %+v, %v; want %+v", got, ok, tt.conflict)
			}
		})
	}
	if _, ok := mms.MemoryPathConflictOf(errors.New("x")); ok {
		t.Error("a plain error read as a path conflict")
	}
}

// TestContentSHA256 pins the helper to known digests.
func TestContentSHA256(t *testing.T) {
	for in, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	} {
		if got := mms.ContentSHA256(in); got != want {
			t.Errorf("ContentSHA256(%q) = %s, want %s", in, got, want)
		}
	}
}
