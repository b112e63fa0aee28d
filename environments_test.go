package mms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

const testEnvironmentJSON = `{"id":"env_1","type":"environment","name":"e","description":null,"config":{"type":"self_hosted"},` +
	`"metadata":{},"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z","archived_at":null}`

const testWorkJSON = `{"id":"work_1","type":"work","environment_id":"env_1","state":"starting","data":{"type":"session","id":"sesn_1"},` +
	`"metadata":{},"secret":null,"created_at":"2026-04-02T10:00:00Z","acknowledged_at":null,"started_at":"2026-04-02T10:00:00Z",` +
	`"latest_heartbeat_at":null,"stop_requested_at":null,"stopped_at":null}`

// TestEnvironmentsWire checks every environments operation against a
// scripted server.
func TestEnvironmentsWire(t *testing.T) {
	page := reply{body: `{"data":[` + testEnvironmentJSON + `],"next_page":null}`}
	env := reply{body: testEnvironmentJSON}
	runWireCases(t, []wireCase{
		{"create", env, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "e", Config: mms.SelfHostedEnvironmentConfig{},
				Scope: mms.EnvironmentScopeAccount, Metadata: map[string]string{"k": "v"}})
			return err
		}, "POST", "/v1/environments", "", `{"name":"e","config":{"type":"self_hosted"},"scope":"account","metadata":{"k":"v"}}`, nil},
		{"get in a workspace", env, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Get(ctx, "env_1", option.WithWorkspaceID("wrkspc_1"))
			return err
		}, "GET", "/v1/environments/env_1", "", "", map[string]string{"Vendor-Workspace-Id": "wrkspc_1"}},
		{"update", env, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Update(ctx, "env_1", mms.EnvironmentUpdateParams{Description: mms.Clear[string](),
				Config:   mms.Set[mms.EnvironmentConfig](mms.CloudEnvironmentConfig{Packages: &mms.EnvironmentPackages{Pip: []string{"x"}}}),
				Metadata: mms.MetadataPatch{}.Delete("k")})
			return err
		}, "POST", "/v1/environments/env_1", "", `{"description":null,"config":{"type":"cloud","packages":{"pip":["x"]}},"metadata":{"k":null}}`, nil},
		{"archive", env, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Archive(ctx, "env_1")
			return err
		}, "POST", "/v1/environments/env_1/archive", "", "", nil},
		{"delete", reply{body: `{"id":"env_1","type":"environment_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Delete(ctx, "env_1")
			return err
		}, "DELETE", "/v1/environments/env_1", "", "", nil},
		{"list", page, func(ctx context.Context, c *mms.Client) error {
			for _, err := range c.Environments.List(ctx, mms.EnvironmentListParams{Limit: 5, IncludeArchived: true, Page: mms.Cursor{Token: "page_x"}}) {
				if err != nil {
					return err
				}
			}
			return nil
		}, "GET", "/v1/environments", "include_archived=true&limit=5&page=page_x", "", nil},
	})
}

// TestEnvironmentDeleteAnswers: Delete takes {id, type}, a 204 and an
// empty 200 alike; other calls still refuse an empty body.
func TestEnvironmentDeleteAnswers(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reply reply
		want  mms.EnvironmentDeleted
	}{
		{"object", reply{body: `{"id":"env_1","type":"environment_deleted"}`}, mms.EnvironmentDeleted{ID: "env_1"}},
		{"204", reply{status: 204}, mms.EnvironmentDeleted{ID: "env 1"}},
		{"empty 200", reply{body: "  "}, mms.EnvironmentDeleted{ID: "env 1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, tt.reply)
			d, err := newTestClient(t, srv).Environments.Delete(context.Background(), tt.want.ID)
			if err != nil || !cmp.Equal(*d, tt.want) {
				t.Fatalf("got %+v, %v", d, err)
			}
		})
	}
	srv := newScriptServer(t, reply{status: 204})
	if e, err := newTestClient(t, srv).Environments.Get(context.Background(), "env_1"); err == nil {
		t.Errorf("Get of an empty answer: %+v, want an error", e)
	}
}

// TestEnvironmentWorkWire checks every work-queue operation against a
// scripted server, the worker-id header included.
func TestEnvironmentWorkWire(t *testing.T) {
	work := reply{body: testWorkJSON}
	runWireCases(t, []wireCase{
		{"poll", work, func(ctx context.Context, c *mms.Client) error {
			w, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(5000), ReclaimOlderThanMS: mms.Ptr(0), WorkerID: "w-1"})
			if err == nil && (w == nil || w.ID != "work_1") {
				err = fmt.Errorf("polled %+v", w)
			}
			return err
		}, "GET", "/v1/environments/env_1/work/poll", "block_ms=5000&reclaim_older_than_ms=0", "", map[string]string{"Vendor-Worker-Id": "w-1"}},
		{"poll without work", reply{status: 204}, func(ctx context.Context, c *mms.Client) error {
			w, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(0)})
			if err == nil && w != nil {
				err = fmt.Errorf("polled %+v, want nil", w)
			}
			return err
		}, "GET", "/v1/environments/env_1/work/poll", "block_ms=0", "", map[string]string{"Vendor-Worker-Id": ""}},
		{"get", work, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Work.Get(ctx, "env_1", "work_1")
			return err
		}, "GET", "/v1/environments/env_1/work/work_1", "", "", nil},
		{"update", work, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Work.Update(ctx, "env_1", "work_1", mms.WorkUpdateParams{Metadata: mms.MetadataPatch{}.Set("a", "b").Delete("c")})
			return err
		}, "POST", "/v1/environments/env_1/work/work_1", "", `{"metadata":{"a":"b","c":null}}`, nil},
		{"list", reply{body: `{"data":[` + testWorkJSON + `],"next_page":null}`}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Work.ListPage(ctx, "env_1", mms.WorkListParams{Limit: 3})
			return err
		}, "GET", "/v1/environments/env_1/work", "limit=3", "", nil},
		{"ack", work, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Work.Ack(ctx, "env_1", "work_1")
			return err
		}, "POST", "/v1/environments/env_1/work/work_1/ack", "", "", nil},
		{"heartbeat", reply{body: `{"type":"work_heartbeat","last_heartbeat":"t","lease_extended":true,"state":"active","ttl_seconds":60}`},
			func(ctx context.Context, c *mms.Client) error {
				h, err := c.Environments.Work.Heartbeat(ctx, "env_1", "work_1", mms.WorkHeartbeatParams{DesiredTTLSeconds: mms.Ptr(60), ExpectedLastHeartbeat: "s"})
				if err == nil && (!h.LeaseExtended || h.TTLSeconds != 60 || h.State != mms.WorkStateActive) {
					err = fmt.Errorf("heartbeat %+v", h)
				}
				return err
			}, "POST", "/v1/environments/env_1/work/work_1/heartbeat", "desired_ttl_seconds=60&expected_last_heartbeat=s", "", nil}, // R2: query, no body
		{"stop", work, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Environments.Work.Stop(ctx, "env_1", "work_1", mms.WorkStopParams{Force: true})
			return err
		}, "POST", "/v1/environments/env_1/work/work_1/stop", "", `{"force":true}`, nil},
		{"stats", reply{body: `{"type":"work_queue_stats","depth":1,"pending":0,"oldest_queued_at":null,"workers_polling":2}`},
			func(ctx context.Context, c *mms.Client) error {
				s, err := c.Environments.Work.Stats(ctx, "env_1")
				if err == nil && (s.Depth != 1 || s.WorkersPolling == nil || *s.WorkersPolling != 2) {
					err = fmt.Errorf("stats %+v", s)
				}
				return err
			}, "GET", "/v1/environments/env_1/work/stats", "", "", nil},
	})
}

// checkSentValidation: field "" wants success (one request sent), else a
// *ValidationError for field and nothing sent.
func checkSentValidation(t *testing.T, err error, field string, srv *scriptServer) {
	t.Helper()
	checkAgentValidation(t, err, field, len(srv.requests()))
}

// TestEnvironmentValidation: each rule on both sides; a failure sends
// nothing and names the field.
func TestEnvironmentValidation(t *testing.T) {
	metadata := func(n, keyLen, valueLen int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprintf("%0*d", keyLen, i)] = strings.Repeat("v", valueLen)
		}
		return m
	}
	limited := func(hosts ...string) mms.EnvironmentConfig {
		return mms.CloudEnvironmentConfig{Networking: mms.LimitedNetworking{AllowedHosts: hosts}}
	}
	for _, tt := range []struct {
		name  string
		p     mms.EnvironmentCreateParams
		field string
	}{
		{"minimal", mms.EnvironmentCreateParams{Name: "e"}, ""},
		{"no name", mms.EnvironmentCreateParams{}, "name"},
		{"name 256", mms.EnvironmentCreateParams{Name: strings.Repeat("n", 256)}, ""},
		{"name 257", mms.EnvironmentCreateParams{Name: strings.Repeat("n", 257)}, "name"},
		{"limited hosts", mms.EnvironmentCreateParams{Name: "e", Config: limited("a.example")}, ""},
		{"limited no hosts", mms.EnvironmentCreateParams{Name: "e", Config: limited()}, ""},
		{"empty host", mms.EnvironmentCreateParams{Name: "e", Config: limited("a", "")}, "config.networking.allowed_hosts[1]"},
		{"empty package", mms.EnvironmentCreateParams{Name: "e", Config: mms.CloudEnvironmentConfig{Packages: &mms.EnvironmentPackages{Pip: []string{""}}}},
			"config.packages.pip[0]"},
		{"16 metadata pairs", mms.EnvironmentCreateParams{Name: "e", Metadata: metadata(16, 2, 1)}, ""},
		{"17 metadata pairs", mms.EnvironmentCreateParams{Name: "e", Metadata: metadata(17, 2, 1)}, "metadata"},
		{"metadata key 64", mms.EnvironmentCreateParams{Name: "e", Metadata: metadata(1, 64, 1)}, ""},
		{"metadata key 65", mms.EnvironmentCreateParams{Name: "e", Metadata: metadata(1, 65, 1)}, "metadata"},
		{"metadata value 512", mms.EnvironmentCreateParams{Name: "e", Metadata: metadata(1, 1, 512)}, ""},
		{"metadata value 513", mms.EnvironmentCreateParams{Name: "e", Metadata: metadata(1, 1, 513)}, "metadata.0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testEnvironmentJSON})
			_, err := newTestClient(t, srv).Environments.Create(context.Background(), tt.p)
			checkSentValidation(t, err, tt.field, srv)
		})
	}
	for _, tt := range []struct {
		name  string
		id    string
		p     mms.EnvironmentUpdateParams
		field string
	}{
		{"empty update", "env_1", mms.EnvironmentUpdateParams{}, ""},
		{"no id", "", mms.EnvironmentUpdateParams{}, "environment_id"},
		{"dot id", ".", mms.EnvironmentUpdateParams{}, "environment_id"},
		{"nil config set", "env_1", mms.EnvironmentUpdateParams{Config: mms.Set[mms.EnvironmentConfig](nil)}, "config"},
		{"config cleared", "env_1", mms.EnvironmentUpdateParams{Config: mms.Clear[mms.EnvironmentConfig]()}, ""},
		{"empty host", "env_1", mms.EnvironmentUpdateParams{Config: mms.Set(limited(""))}, "config.networking.allowed_hosts[0]"},
		{"metadata value 513", "env_1", mms.EnvironmentUpdateParams{Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 513))}, "metadata.k"},
		{"metadata value 512", "env_1", mms.EnvironmentUpdateParams{Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 512))}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testEnvironmentJSON})
			_, err := newTestClient(t, srv).Environments.Update(context.Background(), tt.id, tt.p)
			checkSentValidation(t, err, tt.field, srv)
		})
	}
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	for name, tt := range map[string]struct {
		call  func() error
		field string
	}{
		"get":     {func() error { _, err := c.Environments.Get(ctx, ""); return err }, "environment_id"},
		"archive": {func() error { _, err := c.Environments.Archive(ctx, ".."); return err }, "environment_id"},
		"delete":  {func() error { _, err := c.Environments.Delete(ctx, ""); return err }, "environment_id"},
		"limit": {func() error {
			_, err := c.Environments.ListPage(ctx, mms.EnvironmentListParams{Limit: 1001})
			return err
		}, "limit"},
		"list limit": {func() error {
			for _, err := range c.Environments.List(ctx, mms.EnvironmentListParams{Limit: -1}) {
				return err
			}
			return nil
		}, "limit"},
	} {
		var ve *mms.ValidationError
		if err := tt.call(); !errors.As(err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestEnvironmentWorkValidation: the work queue's rules on both sides,
// and block_ms against the request timeout.
func TestEnvironmentWorkValidation(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		call  func(*mms.Client) error
		field string
	}{
		{"poll", func(c *mms.Client) error {
			_, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(0), ReclaimOlderThanMS: mms.Ptr(0)})
			return err
		}, ""},
		{"poll no env", func(c *mms.Client) error {
			_, err := c.Environments.Work.Poll(ctx, "", mms.EnvironmentWorkPollParams{})
			return err
		}, "environment_id"},
		{"block -1", func(c *mms.Client) error {
			_, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(-1)})
			return err
		}, "block_ms"},
		{"reclaim -1", func(c *mms.Client) error {
			_, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{ReclaimOlderThanMS: mms.Ptr(-1)})
			return err
		}, "reclaim_older_than_ms"},
		{"worker id newline", func(c *mms.Client) error {
			_, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{WorkerID: "a\nb"})
			return err
		}, "worker_id"},
		{"block under the request timeout", func(c *mms.Client) error {
			_, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(9999)}, option.WithRequestTimeout(10*time.Second))
			return err
		}, ""},
		{"block at the request timeout", func(c *mms.Client) error {
			_, err := c.Environments.Work.Poll(ctx, "env_1", mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(10000)}, option.WithRequestTimeout(10*time.Second))
			return err
		}, "block_ms"},
		{"get no work id", func(c *mms.Client) error { _, err := c.Environments.Work.Get(ctx, "env_1", ""); return err }, "work_id"},
		{"ack no env", func(c *mms.Client) error { _, err := c.Environments.Work.Ack(ctx, "", "w"); return err }, "environment_id"},
		{"stop no work id", func(c *mms.Client) error {
			_, err := c.Environments.Work.Stop(ctx, "env_1", "..", mms.WorkStopParams{})
			return err
		}, "work_id"},
		{"stats no env", func(c *mms.Client) error { _, err := c.Environments.Work.Stats(ctx, ""); return err }, "environment_id"},
		{"update without metadata", func(c *mms.Client) error {
			_, err := c.Environments.Work.Update(ctx, "env_1", "w", mms.WorkUpdateParams{})
			return err
		}, "metadata"},
		{"update empty metadata", func(c *mms.Client) error {
			_, err := c.Environments.Work.Update(ctx, "env_1", "w", mms.WorkUpdateParams{Metadata: mms.MetadataPatch{}})
			return err
		}, ""},
		{"update key 65", func(c *mms.Client) error {
			_, err := c.Environments.Work.Update(ctx, "env_1", "w", mms.WorkUpdateParams{Metadata: mms.MetadataPatch{}.Set(strings.Repeat("k", 65), "v")})
			return err
		}, "metadata"},
		{"heartbeat ttl 0", func(c *mms.Client) error {
			_, err := c.Environments.Work.Heartbeat(ctx, "env_1", "w", mms.WorkHeartbeatParams{DesiredTTLSeconds: mms.Ptr(0)})
			return err
		}, "desired_ttl_seconds"},
		{"heartbeat ttl 1", func(c *mms.Client) error {
			_, err := c.Environments.Work.Heartbeat(ctx, "env_1", "w", mms.WorkHeartbeatParams{DesiredTTLSeconds: mms.Ptr(1)})
			return err
		}, ""},
		{"list limit 101", func(c *mms.Client) error {
			_, err := c.Environments.Work.ListPage(ctx, "env_1", mms.WorkListParams{Limit: 101})
			return err
		}, "limit"},
		{"list no env", func(c *mms.Client) error {
			for _, err := range c.Environments.Work.List(ctx, "", mms.WorkListParams{}) {
				return err
			}
			return nil
		}, "environment_id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := testWorkJSON
			if strings.HasPrefix(tt.name, "heartbeat") {
				body = `{"type":"work_heartbeat","last_heartbeat":"t","lease_extended":true,"state":"active","ttl_seconds":1}`
			}
			srv := newScriptServer(t, reply{body: body})
			checkSentValidation(t, tt.call(newTestClient(t, srv)), tt.field, srv)
		})
	}
}
