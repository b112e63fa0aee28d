package mms_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
)

const (
	testRepoResourceJSON = `{"type":"github_repository","id":"sesrsc_1","url":"u","mount_path":"/w","checkout":null,` +
		`"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z"}`
	testFileResourceJSON = `{"type":"file","id":"sesrsc_2","file_id":"file_1","mount_path":"/m",` +
		`"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z"}`
)

// TestSessionResourcesWire checks every resources operation against a
// scripted server, and that a list decodes each resource by its type.
func TestSessionResourcesWire(t *testing.T) {
	page := `{"data":[` + testRepoResourceJSON + `,` + testFileResourceJSON + `,{"type":"memory_store","memory_store_id":"memstore_1"},{"type":"s3"}],"next_page":null}`
	runWireCases(t, []wireCase{
		{"add", reply{body: testFileResourceJSON}, func(ctx context.Context, c *mms.Client) error {
			r, err := c.Sessions.Resources.Add(ctx, "sesn_1", mms.FileResourceParams{FileID: "file_1", MountPath: "/m"})
			if err == nil && r.ID != "sesrsc_2" {
				err = fmt.Errorf("added %+v", r)
			}
			return err
		}, "POST", "/v1/sessions/sesn_1/resources", "", `{"type":"file","file_id":"file_1","mount_path":"/m"}`, nil},
		{"get", reply{body: testRepoResourceJSON}, func(ctx context.Context, c *mms.Client) error {
			r, err := c.Sessions.Resources.Get(ctx, "sesn_1", "sesrsc_1")
			if _, ok := r.(mms.GitHubRepositoryResource); err == nil && !ok {
				err = fmt.Errorf("got %#v", r)
			}
			return err
		}, "GET", "/v1/sessions/sesn_1/resources/sesrsc_1", "", "", nil},
		{"update", reply{body: testRepoResourceJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Resources.Update(ctx, "sesn_1", "sesrsc_1", mms.SessionResourceUpdateParams{AuthorizationToken: mms.NewSecret("new")})
			return err
		}, "POST", "/v1/sessions/sesn_1/resources/sesrsc_1", "", `{"authorization_token":"new"}`, nil},
		{"delete", reply{body: `{"id":"sesrsc_1","type":"session_resource_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			d, err := c.Sessions.Resources.Delete(ctx, "sesn_1", "sesrsc_1")
			if err == nil && d.ID != "sesrsc_1" {
				err = fmt.Errorf("deleted %+v", d)
			}
			return err
		}, "DELETE", "/v1/sessions/sesn_1/resources/sesrsc_1", "", "", nil},
		{"list", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			var kinds []string
			for r, err := range c.Sessions.Resources.List(ctx, "sesn_1", mms.SessionResourceListParams{Limit: 3, Page: mms.Cursor{Token: "pg"}}) {
				if err != nil {
					return err
				}
				kinds = append(kinds, fmt.Sprintf("%T", r))
			}
			want := []string{"mms.GitHubRepositoryResource", "mms.FileResource", "mms.MemoryStoreResource", "mms.UnknownSessionResource"}
			if !cmp.Equal(kinds, want) {
				return fmt.Errorf("kinds %v", kinds)
			}
			return nil
		}, "GET", "/v1/sessions/sesn_1/resources", "limit=3&page=pg", "", nil},
		{"list page", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Resources.ListPage(ctx, "sesn_1", mms.SessionResourceListParams{})
			return err
		}, "GET", "/v1/sessions/sesn_1/resources", "", "", nil},
	})
}

// TestSessionResourcesValidation: the required ids and the token, before
// sending.
func TestSessionResourcesValidation(t *testing.T) {
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	r := c.Sessions.Resources
	for name, tt := range map[string]struct {
		err   error
		field string
	}{
		"add no session":  {func() error { _, err := r.Add(ctx, "", mms.FileResourceParams{FileID: "f"}); return err }(), "session_id"},
		"add no file":     {func() error { _, err := r.Add(ctx, "s", mms.FileResourceParams{}); return err }(), "resource.file_id"},
		"get no resource": {func() error { _, err := r.Get(ctx, "s", ""); return err }(), "resource_id"},
		"get no session":  {func() error { _, err := r.Get(ctx, "", "r"); return err }(), "session_id"},
		"update no token": {func() error { _, err := r.Update(ctx, "s", "r", mms.SessionResourceUpdateParams{}); return err }(), "authorization_token"},
		"update no id": {func() error {
			_, err := r.Update(ctx, "s", "..", mms.SessionResourceUpdateParams{AuthorizationToken: mms.NewSecret("t")})
			return err
		}(), "resource_id"},
		"delete no id":    {func() error { _, err := r.Delete(ctx, "s", ""); return err }(), "resource_id"},
		"list no session": {drain(r.List(ctx, "", mms.SessionResourceListParams{})), "session_id"},
		"list limit 101":  {func() error { _, err := r.ListPage(ctx, "s", mms.SessionResourceListParams{Limit: 101}); return err }(), "limit"},
	} {
		var ve *mms.ValidationError
		if !errors.As(tt.err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: %v", name, tt.err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
