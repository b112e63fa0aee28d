package mms_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

const testSkillMD = "---\nname: csv-tools\ndescription: Summarises CSV files\n---\n\n# CSV tools\n"

// skillFS is a skill directory with several files, one nested.
func skillFS(dir string) fstest.MapFS {
	return fstest.MapFS{
		dir + "/SKILL.md":           {Data: []byte(testSkillMD)},
		dir + "/scripts/summary.py": {Data: []byte("import csv\n")},
		dir + "/reference.md":       {Data: []byte("# Reference\n")},
		"elsewhere.txt":             {Data: []byte("not part of the skill")},
	}
}

func skillFiles(t *testing.T, dir string) []mms.SkillFile {
	t.Helper()
	files, err := mms.SkillFilesFromFS(skillFS(dir), dir)
	require.NoError(t, err)
	return files
}

// TestSkillsLifecycle: create with several files, versions
// create/list/get/delete, delete, against the fake.
func TestSkillsLifecycle(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	ctx := context.Background()

	k, err := c.Skills.Create(ctx, mms.SkillCreateParams{DisplayTitle: "CSV tools", Files: skillFiles(t, "csv-tools")})
	require.NoError(t, err)
	if !strings.HasPrefix(k.ID, "skill_") || k.DisplayTitle == nil || *k.DisplayTitle != "CSV tools" ||
		k.LatestVersion == nil || k.Source != mms.SkillSourceCustom {
		t.Fatalf("skill %+v", k)
	}
	if _, err := k.Created(); err != nil {
		t.Error(err)
	}
	// What went over the wire: one files[] part per file, with the
	// directory prefix, and the title.
	req := srv.Requests()[0]
	if got := formNames(t, req); !cmp.Equal(got, []string{
		"display_title", "files[]:csv-tools/SKILL.md", "files[]:csv-tools/reference.md", "files[]:csv-tools/scripts/summary.py",
	}) {
		t.Errorf("parts %v", got)
	}

	v2, err := c.Skills.Versions.Create(ctx, k.ID, mms.SkillVersionCreateParams{Files: skillFiles(t, "csv-tools")})
	require.NoError(t, err)
	if v2.SkillID != k.ID || v2.Name != "csv-tools" || v2.Description != "Summarises CSV files" || v2.Directory != "csv-tools" ||
		v2.Version <= *k.LatestVersion {
		t.Fatalf("version %+v after %s", v2, *k.LatestVersion)
	}
	var versions []string
	for v, err := range c.Skills.Versions.List(ctx, k.ID, mms.SkillVersionListParams{Limit: 1}) {
		require.NoError(t, err)
		versions = append(versions, v.Version)
	}
	if diff := cmp.Diff([]string{v2.Version, *k.LatestVersion}, versions); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}
	got, err := c.Skills.Versions.Get(ctx, k.ID, v2.Version)
	if err != nil || !cmp.Equal(got, v2) {
		t.Fatalf("Versions.Get: %+v, %v", got, err)
	}
	k2, err := c.Skills.Get(ctx, k.ID)
	if err != nil || *k2.LatestVersion != v2.Version {
		t.Fatalf("Get: %+v, %v", k2, err)
	}
	dv, err := c.Skills.Versions.Delete(ctx, k.ID, v2.Version)
	if err != nil || dv.ID != v2.Version {
		t.Fatalf("Versions.Delete: %+v, %v", dv, err)
	}
	if _, err := c.Skills.Versions.Get(ctx, k.ID, v2.Version); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Versions.Get after delete: %v", err)
	}
	if k3, err := c.Skills.Get(ctx, k.ID); err != nil || *k3.LatestVersion != *k.LatestVersion {
		t.Errorf("latest after deleting the newest: %+v, %v", k3, err)
	}
	ds, err := c.Skills.Delete(ctx, k.ID)
	if err != nil || ds.ID != k.ID {
		t.Fatalf("Delete: %+v, %v", ds, err)
	}
	if _, err := c.Skills.Get(ctx, k.ID); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get after delete: %v", err)
	}
}

// formNames lists a logged multipart request's parts as name or
// name:filename.
func formNames(t *testing.T, req mmstest.Request) []string {
	t.Helper()
	_, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
	require.NoError(t, err)
	mr := multipart.NewReader(bytes.NewReader(req.Body), params["boundary"])
	var out []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		_, dp, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
		name := dp["name"]
		if fn, ok := dp["filename"]; ok {
			name += ":" + fn
		}
		out = append(out, name)
	}
}

// TestSkillFilesRules: each rule on a skill upload is checked before
// anything is sent, and the error names it.
func TestSkillFilesRules(t *testing.T) {
	md := func(path string) mms.SkillFile {
		return mms.SkillFile{Path: path, Reader: strings.NewReader(testSkillMD)}
	}
	other := func(path string) mms.SkillFile { return mms.SkillFile{Path: path, Reader: strings.NewReader("x")} }
	tests := []struct {
		name        string
		files       []mms.SkillFile
		field, rule string
	}{
		{"no files", nil, "files", "at least one file"},
		{"bare SKILL.md", []mms.SkillFile{md("SKILL.md")}, "files[0].path", "SKILL.md must be exactly in the top-level folder"},
		{"file without a directory", []mms.SkillFile{md("a/SKILL.md"), other("run.py")}, "files[1].path", "must start with the skill's top-level directory"},
		{"two top-level directories", []mms.SkillFile{md("a/SKILL.md"), other("b/run.py")}, "files[1].path", "all files must share one top-level directory"},
		{"no SKILL.md", []mms.SkillFile{other("a/run.py")}, "files", `"a" must contain SKILL.md at its root`},
		{"SKILL.md only deeper", []mms.SkillFile{md("a/docs/SKILL.md")}, "files", "must contain SKILL.md at its root"},
		{"lower-case skill.md", []mms.SkillFile{md("a/skill.md")}, "files", "must contain SKILL.md at its root"},
		{"duplicate path", []mms.SkillFile{md("a/SKILL.md"), md("a/SKILL.md")}, "files[1].path", "duplicate path"},
		{"absolute path", []mms.SkillFile{md("/a/SKILL.md")}, "files[0].path", "must be relative"},
		{"dot-dot", []mms.SkillFile{md("a/SKILL.md"), other("a/../b")}, "files[1].path", "clean relative path"},
		{"trailing slash", []mms.SkillFile{md("a/SKILL.md"), other("a/b/")}, "files[1].path", "clean relative path"},
		{"backslash", []mms.SkillFile{md(`a\SKILL.md`)}, "files[0].path", "backslashes"},
		{"empty path", []mms.SkillFile{md("")}, "files[0].path", "must not be empty"},
		{"no reader", []mms.SkillFile{{Path: "a/SKILL.md"}}, "files[0].reader", "is required"},
	}
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, err := range []error{
				mms.SkillCreateParams{Files: tt.files}.Validate(),
				func() error {
					_, err := c.Skills.Create(context.Background(), mms.SkillCreateParams{Files: tt.files})
					return err
				}(),
				func() error {
					_, err := c.Skills.Versions.Create(context.Background(), "skill_1", mms.SkillVersionCreateParams{Files: tt.files})
					return err
				}(),
			} {
				var ve *mms.ValidationError
				if !errors.As(err, &ve) || ve.Field != tt.field || !strings.Contains(ve.Rule, tt.rule) {
					t.Fatalf("err = %v, want field %s with rule %q", err, tt.field, tt.rule)
				}
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent for invalid uploads", n)
	}
	if err := (mms.SkillCreateParams{Files: skillFiles(t, "a")}).Validate(); err != nil {
		t.Errorf("a valid skill: %v", err)
	}
}

// TestSkillsListAcrossPages lists by the cursor scheme, page by page.
func TestSkillsListAcrossPages(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	ctx := context.Background()
	var ids []string
	for i := range 7 {
		dir := fmt.Sprintf("skill-%d", i)
		k, err := c.Skills.Create(ctx, mms.SkillCreateParams{Files: skillFiles(t, dir)})
		require.NoError(t, err)
		ids = append([]string{k.ID}, ids...) // newest first
	}
	srv.ResetRequests()
	var got []string
	for k, err := range c.Skills.List(ctx, mms.SkillListParams{Limit: 3}) {
		require.NoError(t, err)
		got = append(got, k.ID)
	}
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].RawQuery != "limit=3" || !strings.Contains(reqs[1].RawQuery, "page=page_") {
		t.Errorf("%d requests: %+v", len(reqs), reqs)
	}

	page, err := c.Skills.ListPage(ctx, mms.SkillListParams{Limit: 3})
	if err != nil || len(page.Data) != 3 || !page.HasMore || page.NextPage == nil {
		t.Fatalf("first page %+v, %v", page, err)
	}
	page, err = c.Skills.ListPage(ctx, mms.SkillListParams{Limit: 3, Page: *page.NextPage})
	if err != nil || page.Data[0].ID != ids[3] {
		t.Fatalf("second page %+v, %v", page, err)
	}
	page, err = c.Skills.ListPage(ctx, mms.SkillListParams{Source: mms.SkillSourceVendor})
	if err != nil || len(page.Data) != 0 || page.HasMore {
		t.Errorf("vendor skills %+v, %v", page, err)
	}
	if _, err := c.Skills.ListPage(ctx, mms.SkillListParams{Limit: 1001}); !errors.Is(err, mms.ErrInvalidParams) {
		t.Errorf("limit 1001: %v", err)
	}
	if _, err := c.Skills.ListPage(ctx, mms.SkillListParams{Limit: 1000}); err != nil {
		t.Errorf("limit 1000: %v", err) // R2's range, both shapes
	}
}

// TestSkillsBetaHeader: Skills calls send the Skills beta unless switched
// off.
func TestSkillsBetaHeader(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []option.RequestOption
		want string
	}{
		{"default", nil, mms.BetaSkills},
		{"switched off", []option.RequestOption{option.WithoutEndpointBeta(mms.BetaSkills)}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFilesServer(t)
			c := filesClient(t, srv, tt.opts...)
			ctx := context.Background()
			k, err := c.Skills.Create(ctx, mms.SkillCreateParams{Files: skillFiles(t, "a")})
			require.NoError(t, err)
			v, err := c.Skills.Versions.Create(ctx, k.ID, mms.SkillVersionCreateParams{Files: skillFiles(t, "a")})
			require.NoError(t, err)
			c.Skills.Get(ctx, k.ID)
			c.Skills.ListPage(ctx, mms.SkillListParams{})
			c.Skills.Versions.ListPage(ctx, k.ID, mms.SkillVersionListParams{})
			c.Skills.Versions.Get(ctx, k.ID, v.Version)
			c.Skills.Versions.Delete(ctx, k.ID, v.Version)
			c.Skills.Delete(ctx, k.ID)
			reqs := srv.Requests()
			if len(reqs) != 8 {
				t.Fatalf("%d requests", len(reqs))
			}
			for _, r := range reqs {
				if got := r.Header.Get(wire.HeaderBeta); got != tt.want {
					t.Errorf("%s %s: vendor-beta %q, want %q", r.Method, r.Path, got, tt.want)
				}
			}
		})
	}
}

// TestSkillsUploadRetriedFromFiles: skill files given as *os.File are
// sent again on a 429 (a create is not resent after a 5xx).
func TestSkillsUploadRetriedFromFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "big-skill")
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(testSkillMD), 0o644)
	os.WriteFile(filepath.Join(dir, "data", "table.csv"), bytes.Repeat([]byte("1,2,3\n"), 400_000), 0o644)
	var files []mms.SkillFile
	for _, p := range []string{"SKILL.md", "data/table.csv"} {
		f, err := os.Open(filepath.Join(dir, p))
		require.NoError(t, err)
		defer f.Close()
		files = append(files, mms.SkillFile{Path: "big-skill/" + p, Reader: f})
	}
	srv := newFilesServer(t)
	srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/skills", Statuses: []int{429}, RetryAfterMs: "1"})
	c := filesClient(t, srv)
	var md mms.ResponseMetadata
	k, err := c.Skills.Create(context.Background(), mms.SkillCreateParams{Files: files}, option.WithResponseMetadata(&md))
	require.NoError(t, err)
	reqs := srv.Requests()
	if md.Attempts != 2 || len(reqs) != 2 || reqs[0].BodySize != reqs[1].BodySize || reqs[0].BodySize < 2_400_000 {
		t.Errorf("attempts %d, %d requests", md.Attempts, len(reqs))
	}
	if k.LatestVersion == nil {
		t.Errorf("skill %+v", k)
	}

	// The same files as plain streams: not retried.
	srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/skills", Statuses: []int{429}, RetryAfterMs: "1"})
	_, err = c.Skills.Create(context.Background(), mms.SkillCreateParams{Files: []mms.SkillFile{
		{Path: "s/SKILL.md", Reader: onlyReader{strings.NewReader(testSkillMD)}},
	}})
	if !errors.Is(err, mms.ErrNotReplayable) {
		t.Errorf("a streamed skill upload meeting a 429: %v", err)
	}
}

func TestSkillFilesFromDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-skill")
	os.MkdirAll(filepath.Join(dir, "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(testSkillMD), 0o644)
	os.WriteFile(filepath.Join(dir, "scripts", "run.py"), []byte("print(1)\n"), 0o644)
	files, err := mms.SkillFilesFromDir(dir)
	require.NoError(t, err)
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if diff := cmp.Diff([]string{"my-skill/SKILL.md", "my-skill/scripts/run.py"}, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if _, err := mms.SkillFilesFromFS(skillFS("x"), "."); err == nil {
		t.Error(`SkillFilesFromFS(".") accepted`)
	}
	if _, err := mms.SkillFilesFromDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing directory accepted")
	}
}

func TestSkillRecordsRoundTrip(t *testing.T) {
	t.Run("skill", func(t *testing.T) {
		k := roundTrip[mms.Skill](t, []byte(`{"type":"skill","id":"skill_1","display_title":null,"latest_version":"1759178010641129",`+
			`"source":"vendor","created_at":"2025-10-02T00:00:00Z","updated_at":"2025-10-03T00:00:00Z","display_name":"ga-name"}`))
		if k.DisplayTitle != nil || *k.LatestVersion != "1759178010641129" || k.Source != mms.SkillSourceVendor || len(k.Extra) != 1 {
			t.Errorf("decoded %+v", k)
		}
	})
	t.Run("version", func(t *testing.T) {
		v := roundTrip[mms.SkillVersion](t, []byte(`{"type":"skill_version","id":"skillver_1","skill_id":"skill_1","version":"1",`+
			`"name":"n","description":"d","directory":"n","created_at":"2025-10-02T00:00:00Z","extra":[1]}`))
		if v.Name != "n" || len(v.Extra) != 1 {
			t.Errorf("decoded %+v", v)
		}
	})
	t.Run("deleted", func(t *testing.T) {
		roundTrip[mms.SkillDeleted](t, []byte(`{"type":"skill_deleted","id":"skill_1"}`))
		roundTrip[mms.SkillVersionDeleted](t, []byte(`{"type":"skill_version_deleted","id":"1"}`))
	})
}
