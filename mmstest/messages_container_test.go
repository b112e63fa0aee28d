package mmstest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestContainers checks which requests run in a container, that an issued
// id is accepted (string and object forms) and keeps its skills, that an
// id the server did not issue is a 404, and that streams carry the
// container in message_start and message_delta.
func TestContainers(t *testing.T) {
	clock := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	s := newTestServer(t, WithClock(func() time.Time { return clock }))
	const exec = `"tools":[{"type":"code_execution_20250825","name":"code_execution"}],`
	const id1 = "container_010000000000000000000001"
	skill := `{"type":"vendor","skill_id":"pdf","version":"latest"}`
	tests := []struct {
		name, members string
		status        int
		want          string // the container member, "" when absent
	}{
		{"no tool, no container", `"messages":` + hi, 200, "null"},
		{"code execution tool", exec + `"messages":` + hi, 200, `{"id":"` + id1 + `","expires_at":"2026-03-04T06:06:07Z","skills":null}`},
		{"issued id, string form", `"container":"` + id1 + `","messages":` + hi, 200,
			`{"id":"` + id1 + `","expires_at":"2026-03-04T06:06:07Z","skills":null}`},
		{"issued id with skills", exec + `"container":{"id":"` + id1 + `","skills":[{"type":"vendor","skill_id":"pdf"}]},"messages":` + hi, 200,
			`{"id":"` + id1 + `","expires_at":"2026-03-04T06:06:07Z","skills":[` + skill + `]}`},
		{"issued id keeps its skills", `"container":{"id":"` + id1 + `"},"messages":` + hi, 200,
			`{"id":"` + id1 + `","expires_at":"2026-03-04T06:06:07Z","skills":[` + skill + `]}`},
		{"new container from skills", `"container":{"skills":[]},"messages":` + hi, 200,
			`{"id":"container_010000000000000000000002","expires_at":"2026-03-04T06:06:07Z","skills":[]}`},
		{"id not issued", exec + `"container":"container_019999","messages":` + hi, 404, ""},
		{"id not issued, object form", `"container":{"id":"container_019999"},"messages":` + hi, 404, ""},
	}
	for _, tt := range tests {
		resp, got := post(t, s, messagesPath, create(tt.members))
		if resp.StatusCode != tt.status {
			t.Fatalf("%s: status %d, want %d: %s", tt.name, resp.StatusCode, tt.status, got)
		}
		if tt.status != 200 {
			var e errorBody
			_ = json.Unmarshal(got, &e)
			if e.Error.Type != "not_found_error" || e.Error.Message != "container: container_019999 not found" {
				t.Errorf("%s: %s", tt.name, got)
			}
			continue
		}
		if c := rawMember(t, got, "container"); c != tt.want {
			t.Errorf("%s: container\n got %s\nwant %s", tt.name, c, tt.want)
		}
	}

	body := create(exec + `"messages":` + hi)
	want := postMessage(t, s, body)
	m, events := streamMessageOf(t, s, body)
	start := events[0].data["message"].(map[string]any)["container"].(map[string]any)
	if start["id"] != "container_010000000000000000000004" {
		t.Errorf("message_start container %v", start)
	}
	delete(want, "id")
	delete(m, "id")
	want["container"].(map[string]any)["id"] = start["id"]
	if d := cmp.Diff(want, m); d != "" {
		t.Errorf("stream differs from the message (-message +stream):\n%s", d)
	}
}
