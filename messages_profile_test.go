package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

const minimalMessage = `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],` +
	`"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`

// profileParams is a Create body naming a user profile (or none).
func profileParams(profile string) mms.MessageCreateParams {
	return mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{mms.UserText("hi")}, UserProfileID: profile}
}

// TestMessagesUserProfileID: the body member user_profile_id is sent with
// the user-profiles beta (a dated one given by the caller stands for it);
// a call whose vendor-user-profile-id header, from the client or the call,
// names another profile is refused before sending, for Create and Stream.
func TestMessagesUserProfileID(t *testing.T) {
	tests := []struct {
		name       string
		client     []option.RequestOption
		call       []option.RequestOption
		body       string
		wantHeader string // vendor-user-profile-id sent
		wantBeta   string // vendor-beta sent
		conflict   string // header value named by the refusal; "" = sent
	}{
		{"body only", nil, nil, "uprof_b", "", "user-profiles", ""},
		{"header only", []option.RequestOption{option.WithUserProfileID("uprof_a")}, nil, "", "uprof_a", "user-profiles", ""},
		{"same in both", []option.RequestOption{option.WithUserProfileID("uprof_b")}, nil, "uprof_b", "uprof_b", "user-profiles", ""},
		{"dated beta stands for it", nil, []option.RequestOption{option.WithBeta("user-profiles-2026-08-18")}, "uprof_b", "", "user-profiles-2026-08-18", ""},
		{"call header overrides client header", []option.RequestOption{option.WithUserProfileID("uprof_a")},
			[]option.RequestOption{option.WithUserProfileID("uprof_b")}, "uprof_b", "uprof_b", "user-profiles", ""},
		{"client header conflicts", []option.RequestOption{option.WithUserProfileID("uprof_a")}, nil, "uprof_b", "", "", "uprof_a"},
		{"call header conflicts", nil, []option.RequestOption{option.WithUserProfileID("uprof_c")}, "uprof_b", "", "", "uprof_c"},
		{"WithHeader conflicts", nil, []option.RequestOption{option.WithHeader("vendor-user-profile-id", "uprof_d")}, "uprof_b", "", "", "uprof_d"},
	}
	for _, tt := range tests {
		for _, method := range []string{"Create", "Stream"} {
			t.Run(tt.name+"/"+method, func(t *testing.T) {
				srv := newScriptServer(t, reply{body: minimalMessage})
				c := newTestClient(t, srv, tt.client...)
				var err error
				if method == "Create" {
					_, err = c.Messages.Create(context.Background(), profileParams(tt.body), tt.call...)
				} else {
					for _, e := range c.Messages.Stream(context.Background(), profileParams(tt.body), tt.call...) {
						err = e // the scripted JSON answer is no stream: only the refusal matters
						break
					}
				}
				got := srv.requests()
				if tt.conflict != "" {
					var ve *mms.ValidationError
					if !errors.As(err, &ve) || ve.Field != "user_profile_id" || !errors.Is(err, mms.ErrInvalidParams) {
						t.Fatalf("err = %v, want a *ValidationError for user_profile_id", err)
					}
					for _, s := range []string{"vendor-user-profile-id", tt.conflict, tt.body} {
						if !strings.Contains(ve.Rule, s) {
							t.Errorf("rule %q does not name %q", ve.Rule, s)
						}
					}
					if len(got) != 0 {
						t.Errorf("%d requests sent, want none", len(got))
					}
					return
				}
				if method == "Create" && err != nil {
					t.Fatal(err)
				}
				if len(got) != 1 {
					t.Fatalf("%d requests sent, want 1", len(got))
				}
				if h := got[0].header.Get("Vendor-User-Profile-Id"); h != tt.wantHeader {
					t.Errorf("vendor-user-profile-id = %q, want %q", h, tt.wantHeader)
				}
				if b := got[0].header.Get("Vendor-Beta"); b != tt.wantBeta {
					t.Errorf("vendor-beta = %q, want %q", b, tt.wantBeta)
				}
				var body map[string]any
				if err := json.Unmarshal(got[0].body, &body); err != nil {
					t.Fatal(err)
				}
				want := map[string]any{"model": "m", "max_tokens": float64(1),
					"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hi"}}}}}
				if tt.body != "" {
					want["user_profile_id"] = tt.body
				}
				if method == "Stream" {
					want["stream"] = true
				}
				if d := cmp.Diff(want, body); d != "" {
					t.Errorf("body (-want +got):\n%s", d)
				}
			})
		}
	}
}

// TestBatchItemUserProfileID: a batch item's params carry user_profile_id
// (the service errors only that item on a conflict with the batch header,
// so the client does not refuse the batch).
func TestBatchItemUserProfileID(t *testing.T) {
	srv := newScriptServer(t)
	c := newTestClient(t, srv, option.WithUserProfileID("uprof_a"))
	_, _ = c.Messages.Batches.Create(context.Background(), mms.BatchCreateParams{Requests: []mms.BatchRequest{
		{CustomID: "r1", Params: profileParams("uprof_b")},
	}})
	got := srv.requests()
	if len(got) != 1 {
		t.Fatalf("%d requests sent, want 1", len(got))
	}
	var body struct {
		Requests []struct {
			Params map[string]any `json:"params"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(got[0].body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Requests) != 1 || body.Requests[0].Params["user_profile_id"] != "uprof_b" {
		t.Errorf("batch body = %s, want params.user_profile_id uprof_b", got[0].body)
	}
}
