package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

const skillMDText = "---\nname: pdf-tools\ndescription: \"Reads PDFs\"\n---\n\n# PDF tools\n"

func skillFilePart(path, content string) formPart {
	return formPart{name: "files[]", filename: path, contentType: "text/plain", content: content}
}

// skillParts is a valid upload of the directory dir.
func skillParts(dir string) []formPart {
	return []formPart{
		skillFilePart(dir+"/SKILL.md", skillMDText),
		skillFilePart(dir+"/scripts/run.py", "print('hi')\n"),
	}
}

func createSkill(t *testing.T, s *Server, parts ...formPart) skillWire {
	t.Helper()
	resp, body := postForm(t, s, "/v1/skills", parts...)
	if resp.StatusCode != 200 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	var k skillWire
	if err := json.Unmarshal(body, &k); err != nil {
		t.Fatal(err)
	}
	return k
}

// getAs fetches path and decodes a 200 answer.
func getAs[T any](t *testing.T, s *Server, path string) T {
	t.Helper()
	resp, body := get(t, s, path)
	return asJSON[T](t, resp, body)
}

// asJSON decodes a 200 answer.
func asJSON[T any](t *testing.T, resp *http.Response, body []byte) T {
	t.Helper()
	var v T
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSkillLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	k := createSkill(t, s, append(skillParts("pdf-tools"), formPart{name: "display_title", content: "PDF tools"})...)
	v1 := strconv.FormatInt(clock.Now().UnixMicro(), 10)
	title := "PDF tools"
	want := skillWire{Type: "skill", ID: k.ID, DisplayTitle: &title, LatestVersion: &v1, Source: "custom",
		CreatedAt: "2026-07-01T12:00:00.000000Z", UpdatedAt: "2026-07-01T12:00:00.000000Z"}
	if diff := cmp.Diff(want, k); diff != "" || !strings.HasPrefix(k.ID, "skill_") {
		t.Fatalf("skill (-want +got):\n%s", diff)
	}
	if got := getAs[skillWire](t, s, "/v1/skills/"+k.ID); !cmp.Equal(got, want) {
		t.Errorf("get: %+v", got)
	}

	clock.Advance(time.Minute)
	resp, body := postForm(t, s, "/v1/skills/"+k.ID+"/versions", skillParts("pdf-tools")...)
	v := asJSON[skillVersionWire](t, resp, body)
	v2 := strconv.FormatInt(clock.Now().UnixMicro(), 10)
	wantV := skillVersionWire{Type: "skill_version", ID: v.ID, SkillID: k.ID, Version: v2, Name: "pdf-tools",
		Description: "Reads PDFs", Directory: "pdf-tools", CreatedAt: "2026-07-01T12:01:00.000000Z"}
	if diff := cmp.Diff(wantV, v); diff != "" {
		t.Fatalf("version (-want +got):\n%s", diff)
	}
	k2 := getAs[skillWire](t, s, "/v1/skills/"+k.ID)
	if *k2.LatestVersion != v2 || k2.UpdatedAt != "2026-07-01T12:01:00.000000Z" {
		t.Errorf("after a new version: %+v", k2)
	}
	page := getAs[skillListPage[skillVersionWire]](t, s, "/v1/skills/"+k.ID+"/versions")
	if len(page.Data) != 2 || page.Data[0].Version != v2 || page.Data[1].Version != v1 || page.HasMore || page.NextPage != nil {
		t.Errorf("versions: %+v", page)
	}
	if got := getAs[skillVersionWire](t, s, "/v1/skills/"+k.ID+"/versions/"+v2); got != wantV {
		t.Errorf("get version: %+v", got)
	}

	resp, body = send(t, s, newReq(t, s, http.MethodDelete, "/v1/skills/"+k.ID+"/versions/"+v2, nil))
	if resp.StatusCode != 200 || string(body) != `{"id":"`+v2+`","type":"skill_version_deleted"}`+"\n" {
		t.Fatalf("delete version: %d %s", resp.StatusCode, body)
	}
	if k3 := getAs[skillWire](t, s, "/v1/skills/"+k.ID); *k3.LatestVersion != v1 {
		t.Errorf("latest after deleting the newest: %s", *k3.LatestVersion)
	}
	resp, body = get(t, s, "/v1/skills/"+k.ID+"/versions/"+v2)
	wantError(t, resp, body, 404, wire.ErrNotFound, "Skill version not found")
	send(t, s, newReq(t, s, http.MethodDelete, "/v1/skills/"+k.ID+"/versions/"+v1, nil))
	if k4 := getAs[skillWire](t, s, "/v1/skills/"+k.ID); k4.LatestVersion != nil {
		t.Errorf("latest with no version left: %s", *k4.LatestVersion)
	}

	resp, body = send(t, s, newReq(t, s, http.MethodDelete, "/v1/skills/"+k.ID, nil))
	if resp.StatusCode != 200 || string(body) != `{"id":"`+k.ID+`","type":"skill_deleted"}`+"\n" {
		t.Fatalf("delete: %d %s", resp.StatusCode, body)
	}
	for _, path := range []string{"/v1/skills/" + k.ID, "/v1/skills/" + k.ID + "/versions"} {
		resp, body = get(t, s, path)
		wantError(t, resp, body, 404, wire.ErrNotFound, "Skill not found")
	}
	resp, body = postForm(t, s, "/v1/skills/"+k.ID+"/versions", skillParts("pdf-tools")...)
	wantError(t, resp, body, 404, wire.ErrNotFound, "Skill not found")
}

func TestSkillUploadRules(t *testing.T) {
	md := skillFilePart("a/SKILL.md", skillMDText)
	tests := []struct {
		name  string
		path  string // "" = /v1/skills
		parts []formPart
		msg   string
	}{
		{"no files", "", []formPart{{name: "display_title", content: "x"}}, "files: Field required"},
		{"bare SKILL.md", "", []formPart{skillFilePart("SKILL.md", skillMDText)}, "SKILL.md file must be exactly in the top-level folder"},
		{"file outside the directory", "", []formPart{md, skillFilePart("run.py", "x")}, `"run.py": every file must be in the skill's top-level directory`},
		{"two top-level directories", "", []formPart{md, skillFilePart("b/run.py", "x")}, `"b/run.py" is not in "a"`},
		{"SKILL.md only in a subdirectory", "", []formPart{skillFilePart("a/sub/SKILL.md", skillMDText)}, "a/SKILL.md is missing"},
		{"duplicate path", "", []formPart{md, md}, `duplicate file path "a/SKILL.md"`},
		{"unclean path", "", []formPart{md, skillFilePart("a/../b/x", "x")}, "clean relative path"},
		{"no front matter", "", []formPart{skillFilePart("a/SKILL.md", "# hi")}, "YAML front matter"},
		{"no description", "", []formPart{skillFilePart("a/SKILL.md", "---\nname: x\n---\n")}, "YAML front matter"},
		{"text part for a file", "", []formPart{{name: "files[]", content: "x"}}, "expected file parts"},
		{"unknown field", "", []formPart{md, {name: "display_name", content: "x"}}, "display_name: Extra inputs are not permitted"},
		{"title on a version", "/versions", []formPart{md, {name: "display_title", content: "x"}}, "display_title: Extra inputs are not permitted"},
		{"version rules too", "/versions", []formPart{skillFilePart("SKILL.md", skillMDText)}, "exactly in the top-level folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			path := "/v1/skills"
			if tt.path != "" {
				path += "/" + createSkill(t, s, skillParts("a")...).ID + tt.path
			}
			resp, body := postForm(t, s, path, tt.parts...)
			wantError(t, resp, body, 400, wire.ErrInvalidRequest, tt.msg)
		})
	}
}

func TestSkillListPaging(t *testing.T) {
	s := newTestServer(t)
	var ids []string // newest first
	for i := range 5 {
		ids = append([]string{createSkill(t, s, skillParts(fmt.Sprintf("s%d", i))...).ID}, ids...)
	}
	var got []string
	q := url.Values{"limit": {"2"}}
	for pages := 0; ; pages++ {
		page := getAs[skillListPage[skillWire]](t, s, "/v1/skills?"+q.Encode())
		for _, k := range page.Data {
			got = append(got, k.ID)
		}
		if page.HasMore != (page.NextPage != nil) {
			t.Fatalf("has_more %v with next_page %v", page.HasMore, page.NextPage)
		}
		if !page.HasMore {
			if pages != 2 {
				t.Errorf("%d pages, want 3", pages+1)
			}
			break
		}
		q.Set("page", *page.NextPage)
		if pages == 0 { // a token survives the deletion of the item it names
			send(t, s, newReq(t, s, http.MethodDelete, "/v1/skills/"+ids[1], nil))
		}
	}
	want := []string{ids[0], ids[1], ids[2], ids[3], ids[4]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}

	page := getAs[skillListPage[skillWire]](t, s, "/v1/skills?source=vendor")
	if len(page.Data) != 0 {
		t.Errorf("vendor skills: %+v", page.Data)
	}
	for query, msg := range map[string]string{
		"limit=1001": "between 1 and 1000", "limit=x": "valid integer", "page=bogus": "not a page token", "source=mine": "source",
	} {
		resp, body := get(t, s, "/v1/skills?"+query)
		wantError(t, resp, body, 400, wire.ErrInvalidRequest, msg)
	}
	resp, body := get(t, s, "/v1/skills/"+ids[0]+"/versions?limit=1001")
	wantError(t, resp, body, 400, wire.ErrInvalidRequest, "between 1 and 1000")
}

func TestFrontMatter(t *testing.T) {
	tests := []struct {
		in, name, desc string
		ok             bool
	}{
		{"---\nname: a\ndescription: b c\n---\nbody", "a", "b c", true},
		{"---\r\nname: 'a'\r\ndescription: \"b: c\"\r\n---\r\n", "a", "b: c", true},
		{"---\nname: a\n", "", "", false},
		{"name: a\n---\n", "", "", false},
	}
	for _, tt := range tests {
		name, desc, ok := frontMatter(tt.in)
		if name != tt.name || desc != tt.desc || ok != tt.ok {
			t.Errorf("frontMatter(%q) = %q, %q, %v", tt.in, name, desc, ok)
		}
	}
}
