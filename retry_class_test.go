package mms_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// Issue 27 §1: operations that may already have happened are not sent
// again. Each test here failed on the SDK before the retry classes.

// countRequests counts what the fake received with method on path.
func countRequests(srv *mmstest.Server, method, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

// countInLog counts the stored user messages of a session holding text.
func countInLog(srv *mmstest.Server, sessionID, text string) int {
	n := 0
	for _, ev := range srv.SessionEventLog(sessionID) {
		if strings.Contains(string(ev), `"type":"user.message"`) && strings.Contains(string(ev), text) {
			n++
		}
	}
	return n
}

// wantMaybeApplied checks a creating request's error after an answer it
// cannot trust: ErrMaybeApplied, and the service's *Error with its id.
func wantMaybeApplied(t *testing.T, err error, status int) {
	t.Helper()
	require.Error(t, err)
	assert.ErrorIs(t, err, mms.ErrMaybeApplied)
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, status, apiErr.StatusCode)
	assert.NotEmpty(t, apiErr.RequestID)
	assert.Equal(t, 1, apiErr.Attempts)
	assert.Contains(t, err.Error(), "may have taken effect")
}

// TestCreatingPostNotResentAfter500: against a fake that applies the
// request and then answers 500 (three times), every create is sent once,
// its error says it may have happened, and exactly one record exists.
func TestCreatingPostNotResentAfter500(t *testing.T) {
	f := newSessionFake(t)
	ctx := context.Background()
	c := filesClient(t, f.srv, option.WithMaxRetries(2))
	session, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env})
	require.NoError(t, err)
	tests := []struct {
		name, path string
		create     func() error
		count      func() int // how many such records exist afterwards, -1: unchecked
	}{
		{"Sessions.Create", "/v1/sessions", func() error {
			_, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env, Title: "once"})
			return err
		}, func() int {
			n := 0
			for s, err := range c.Sessions.List(ctx, mms.SessionListParams{}) {
				require.NoError(t, err)
				if s.Title != nil && *s.Title == "once" {
					n++
				}
			}
			return n
		}},
		{"Sessions.Events.Send", "/v1/sessions/" + session.ID + "/events", func() error {
			_, err := c.Sessions.Events.Send(ctx, session.ID, mms.SessionEventSendParams{Events: []mms.SessionEventParams{mms.NewUserMessageEvent("only once")}})
			return err
		}, func() int {
			return countInLog(f.srv, session.ID, "only once")
		}},
		{"Messages.Batches.Create", "/v1/messages/batches", func() error {
			_, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{{CustomID: "a", Params: hiParams}}})
			return err
		}, func() int {
			n := 0
			for _, err := range c.Messages.Batches.List(ctx, mms.BatchListParams{}) {
				require.NoError(t, err)
				n++
			}
			return n
		}},
		{"Agents.Create", "/v1/agents", func() error {
			_, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "dup", Model: mms.AgentModel("m")})
			return err
		}, func() int {
			n := 0
			for a, err := range c.Agents.List(ctx, mms.AgentListParams{}) {
				require.NoError(t, err)
				if a.Name == "dup" {
					n++
				}
			}
			return n
		}},
		{"Vaults.Create", "/v1/vaults", func() error {
			_, err := c.Vaults.Create(ctx, mms.VaultCreateParams{DisplayName: "dup"})
			return err
		}, func() int {
			n := 0
			for v, err := range c.Vaults.List(ctx, mms.VaultListParams{}) {
				require.NoError(t, err)
				if v.DisplayName == "dup" {
					n++
				}
			}
			return n
		}},
		{"MemoryStores.Memories.Create", "/v1/memory_stores/" + f.memoryStore + "/memories", func() error {
			_, err := c.MemoryStores.Memories.Create(ctx, f.memoryStore, mms.MemoryCreateParams{Path: "/once.md", Content: "x"})
			return err
		}, func() int { return -1 }},
		{"Files.Upload", "/v1/files", func() error {
			_, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: strings.NewReader("hello")})
			return err
		}, func() int { return -1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.srv.InjectFault(mmstest.Fault{Method: "POST", Path: tt.path, Statuses: []int{500, 500, 500}, AfterApply: true, RetryAfterMs: "1"})
			defer f.srv.ClearFaults()
			before := countRequests(f.srv, "POST", tt.path)
			err := tt.create()
			wantMaybeApplied(t, err, 500)
			assert.Equal(t, 1, countRequests(f.srv, "POST", tt.path)-before, "requests the service received")
			if n := tt.count(); n >= 0 {
				assert.Equal(t, 1, n, "records after the call")
			}
		})
	}
}

// TestCreatingPostNotResentAfterDrop: the connection drops after the
// fake applied the create: sent once, ErrMaybeApplied, no *Error.
func TestCreatingPostNotResentAfterDrop(t *testing.T) {
	f := newSessionFake(t)
	c := filesClient(t, f.srv)
	f.srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/vaults", DropAfterBytes: 1, Times: 3})
	_, err := c.Vaults.Create(context.Background(), mms.VaultCreateParams{DisplayName: "dropped"})
	require.ErrorIs(t, err, mms.ErrMaybeApplied)
	assert.Equal(t, 1, countRequests(f.srv, "POST", "/v1/vaults")-1) // newSessionFake made one
}

// TestStatelessAndIdempotentStillRetried: Messages.Create, CountTokens, an
// update, an archive and a read are retried after a 500 as before.
func TestStatelessAndIdempotentStillRetried(t *testing.T) {
	f := newSessionFake(t)
	ctx := context.Background()
	c := filesClient(t, f.srv)
	tests := []struct {
		name, method, path string
		call               func(opt option.RequestOption) error
	}{
		{"Messages.Create", "POST", "/v1/messages", func(o option.RequestOption) error {
			_, err := c.Messages.Create(ctx, hiParams, o)
			return err
		}},
		{"Messages.CountTokens", "POST", "/v1/messages/count_tokens", func(o option.RequestOption) error {
			_, err := c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: "mms-large-1", Messages: hiParams.Messages}, o)
			return err
		}},
		{"Vaults.Update", "POST", "/v1/vaults/" + f.vault, func(o option.RequestOption) error {
			_, err := c.Vaults.Update(ctx, f.vault, mms.VaultUpdateParams{DisplayName: mms.Set("renamed")}, o)
			return err
		}},
		{"Agents.Get", "GET", "/v1/agents/" + f.agent.ID, func(o option.RequestOption) error {
			_, err := c.Agents.Get(ctx, f.agent.ID, o)
			return err
		}},
		{"Vaults.Archive", "POST", "/v1/vaults/" + f.vault + "/archive", func(o option.RequestOption) error {
			_, err := c.Vaults.Archive(ctx, f.vault, o)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.srv.InjectFault(mmstest.Fault{Method: tt.method, Path: tt.path, Statuses: []int{500}, AfterApply: true, RetryAfterMs: "1"})
			before := countRequests(f.srv, tt.method, tt.path)
			var md mms.ResponseMetadata
			require.NoError(t, tt.call(option.WithResponseMetadata(&md)))
			assert.Equal(t, 2, md.Attempts)
			assert.False(t, md.Resent)
			assert.Equal(t, 2, countRequests(f.srv, tt.method, tt.path)-before)
		})
	}
}

// TestCreatingPostRetriedWhenNotApplied: a 429, x-should-retry: true, and
// a 500 answered before the request took effect but with x-should-retry
// are resent; the create then succeeds and exists once.
func TestCreatingPostRetriedWhenNotApplied(t *testing.T) {
	tests := []struct {
		name  string
		fault mmstest.Fault
	}{
		{"429", mmstest.Fault{Statuses: []int{429}, RetryAfterMs: "1"}},
		{"x-should-retry true on 503", mmstest.Fault{Statuses: []int{503}, RetryAfterMs: "1", ShouldRetry: "true"}},
		{"x-should-retry true on 400", mmstest.Fault{Statuses: []int{400}, RetryAfterMs: "1", ShouldRetry: "true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFilesServer(t)
			c := filesClient(t, srv)
			tt.fault.Method, tt.fault.Path = "POST", "/v1/vaults"
			srv.InjectFault(tt.fault)
			var md mms.ResponseMetadata
			v, err := c.Vaults.Create(context.Background(), mms.VaultCreateParams{DisplayName: "v"}, option.WithResponseMetadata(&md))
			require.NoError(t, err)
			assert.Equal(t, 2, md.Attempts)
			assert.Equal(t, 2, countRequests(srv, "POST", "/v1/vaults"))
			got, err := c.Vaults.Get(context.Background(), v.ID)
			require.NoError(t, err)
			assert.Equal(t, "v", got.DisplayName)
		})
	}
	t.Run("x-should-retry false on 429", func(t *testing.T) {
		srv := newFilesServer(t)
		c := filesClient(t, srv)
		srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/vaults", Statuses: []int{429}, RetryAfterMs: "1", ShouldRetry: "false"})
		_, err := c.Vaults.Create(context.Background(), mms.VaultCreateParams{DisplayName: "v"})
		require.ErrorIs(t, err, mms.ErrRateLimited)
		assert.NotErrorIs(t, err, mms.ErrMaybeApplied)
		assert.Equal(t, 1, countRequests(srv, "POST", "/v1/vaults"))
	})
}

// TestCreatingPostRetriedAfterDialError: no connection was made, so the
// create is resent: the service sees it once.
func TestCreatingPostRetriedAfterDialError(t *testing.T) {
	srv := newFilesServer(t)
	var dials atomic.Int32
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) == 1 {
			return nil, errors.New("connection refused (test)")
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	c := filesClient(t, srv, option.WithHTTPClient(&http.Client{Transport: tr}))
	var md mms.ResponseMetadata
	_, err := c.Sessions.Create(context.Background(), mms.SessionCreateParams{Agent: mms.SessionAgentID("agent_x"), EnvironmentID: "env_x"},
		option.WithResponseMetadata(&md))
	// The fake refuses the unknown agent: what matters is that the
	// create reached it after the dial failed.
	require.Error(t, err)
	assert.NotErrorIs(t, err, mms.ErrMaybeApplied)
	assert.Equal(t, int32(2), dials.Load())
	assert.Equal(t, 1, countRequests(srv, "POST", "/v1/sessions"))
	assert.Equal(t, 2, md.Attempts)
}

// failOnceReader is a seekable body whose first pass fails halfway: the
// request is never fully written.
type failOnceReader struct {
	*bytes.Reader
	failed bool
}

func (r *failOnceReader) Read(p []byte) (int, error) {
	if !r.failed && int64(r.Len()) < r.Size()/2 {
		r.failed = true
		return 0, errors.New("disk error (test)")
	}
	return r.Reader.Read(p)
}

// TestCreatingPostRetriedWhenNotFullyWritten: an upload whose body failed
// mid-write never reached the service whole: it is resent from the start.
func TestCreatingPostRetriedWhenNotFullyWritten(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	body := bytes.Repeat([]byte("0123456789"), 100_000)
	var md mms.ResponseMetadata
	f, err := c.Files.Upload(context.Background(), mms.FileUploadParams{Filename: "a.txt", Reader: &failOnceReader{Reader: bytes.NewReader(body)}},
		option.WithResponseMetadata(&md))
	require.NoError(t, err)
	assert.Equal(t, 2, md.Attempts)
	assert.EqualValues(t, len(body), f.SizeBytes)
	n := 0
	for _, err := range c.Files.List(context.Background(), mms.FileListParams{}) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 1, n)
}

// TestDoClassesByPath: Client.Do retries a POST to the Messages endpoint,
// not a POST it does not know (treated as a create).
func TestDoClassesByPath(t *testing.T) {
	for _, tt := range []struct {
		path     string
		attempts int
	}{{"/v1/messages", 2}, {"/v1/messages/count_tokens", 2}, {"/v1/things", 1}, {"/v1/things/t_1/archive", 2}} {
		t.Run(tt.path, func(t *testing.T) {
			s := newScriptServer(t, reply{status: 500, header: fast})
			c := newTestClient(t, s)
			err := c.Do(context.Background(), "POST", tt.path, map[string]int{"a": 1}, nil)
			assert.Len(t, s.requests(), tt.attempts, "err %v", err)
			assert.Equal(t, tt.attempts == 1, errors.Is(err, mms.ErrMaybeApplied), "err %v", err)
		})
	}
}

// TestDeleteResentAfterLostAnswer (issue 32 §2): a delete the fake applied
// and answered 500 is resent; the 404 it meets is the success of the first
// attempt, reported as such. A first attempt answered 404 is an error.
func TestDeleteResentAfterLostAnswer(t *testing.T) {
	f := newSessionFake(t)
	ctx := context.Background()
	c := filesClient(t, f.srv)
	f.srv.InjectFault(mmstest.Fault{Method: "DELETE", Path: "/v1/vaults/" + f.vault, Statuses: []int{500}, AfterApply: true, RetryAfterMs: "1"})
	var md mms.ResponseMetadata
	d, err := c.Vaults.Delete(ctx, f.vault, option.WithResponseMetadata(&md))
	require.NoError(t, err)
	assert.Equal(t, f.vault, d.ID)
	assert.True(t, md.Resent)
	assert.Equal(t, 2, md.Attempts)
	assert.Equal(t, http.StatusNotFound, md.StatusCode)
	_, err = c.Vaults.Get(ctx, f.vault)
	require.ErrorIs(t, err, mms.ErrNotFound)

	// A first attempt answered 404 stays an error.
	md = mms.ResponseMetadata{}
	_, err = c.Vaults.Delete(ctx, f.vault, option.WithResponseMetadata(&md))
	require.ErrorIs(t, err, mms.ErrNotFound)
	assert.False(t, md.Resent)
	assert.Equal(t, 1, md.Attempts)

	// A dropped answer: the same.
	f.srv.InjectFault(mmstest.Fault{Method: "DELETE", Path: "/v1/memory_stores/" + f.memoryStore, DropAfterBytes: 1, Times: 1})
	md = mms.ResponseMetadata{}
	ds, err := c.MemoryStores.Delete(ctx, f.memoryStore, option.WithResponseMetadata(&md))
	require.NoError(t, err)
	assert.Equal(t, f.memoryStore, ds.ID)
	assert.True(t, md.Resent)
}

// TestRemovalResentScripted: the archive and batch-delete paths of a
// resend answered 404 or "already archived", and what is not success.
func TestRemovalResentScripted(t *testing.T) {
	errBody := func(typ, msg string) string {
		return `{"type":"error","error":{"type":"` + typ + `","message":"` + msg + `"},"request_id":"req_x"}`
	}
	agent := `{"type":"agent","id":"agent_1","name":"a","version":2,"archived_at":"2026-01-01T00:00:00Z"}`
	tests := []struct {
		name    string
		script  []reply
		call    func(c *mms.Client, md *mms.ResponseMetadata) (string, error)
		resent  bool
		wantErr error
		reqs    int
	}{
		{"archive resent 404", []reply{{status: 500, header: fast}, {status: 404, body: errBody("not_found_error", "no agent")}, {status: 200, body: agent}},
			archiveAgent, true, nil, 3},
		{"archive resent already archived", []reply{{drop: true}, {status: 400, body: errBody("invalid_request_error", "Agent agent_1 is already archived")}, {status: 200, body: agent}},
			archiveAgent, true, nil, 3},
		{"archive first 404", []reply{{status: 404, body: errBody("not_found_error", "no agent")}},
			archiveAgent, false, mms.ErrNotFound, 1},
		{"archive resent after 429 then 404", []reply{{status: 429, header: fast}, {status: 404, body: errBody("not_found_error", "no agent")}},
			archiveAgent, false, mms.ErrNotFound, 2},
		{"archive resent other 400", []reply{{status: 500, header: fast}, {status: 400, body: errBody("invalid_request_error", "bad")}},
			archiveAgent, false, mms.ErrInvalidRequest, 2},
		{"batch delete resent 404", []reply{{status: 503, header: fast}, {status: 404, body: errBody("not_found_error", "gone")}},
			func(c *mms.Client, md *mms.ResponseMetadata) (string, error) {
				d, err := c.Messages.Batches.Delete(context.Background(), "msgbatch_1", option.WithResponseMetadata(md))
				if err != nil {
					return "", err
				}
				return d.ID, nil
			}, true, nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScriptServer(t, tt.script...)
			c := newTestClient(t, s)
			var md mms.ResponseMetadata
			id, err := tt.call(c, &md)
			assert.Len(t, s.requests(), tt.reqs)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.False(t, md.Resent)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.resent, md.Resent)
			assert.NotEmpty(t, id)
		})
	}
}

func archiveAgent(c *mms.Client, md *mms.ResponseMetadata) (string, error) {
	a, err := c.Agents.Archive(context.Background(), "agent_1", option.WithResponseMetadata(md))
	if err != nil {
		return "", err
	}
	if a.ArchivedAt == nil {
		return "", errors.New("the archive's answer is not the archived record")
	}
	return a.ID, nil
}

// TestPreconditionFailedOnResend: an update with a precondition whose
// answer was lost is resent and fails its precondition: the error says
// the first may have applied.
func TestPreconditionFailedOnResend(t *testing.T) {
	f := newSessionFake(t)
	ctx := context.Background()
	c := filesClient(t, f.srv)
	m, err := c.MemoryStores.Memories.Create(ctx, f.memoryStore, mms.MemoryCreateParams{Path: "/a.md", Content: "one"})
	require.NoError(t, err)
	path := "/v1/memory_stores/" + f.memoryStore + "/memories/" + m.ID
	f.srv.InjectFault(mmstest.Fault{Method: "POST", Path: path, Statuses: []int{500}, AfterApply: true, RetryAfterMs: "1"})
	_, err = c.MemoryStores.Memories.Update(ctx, f.memoryStore, m.ID, mms.MemoryUpdateParams{Content: mms.Ptr("two"),
		Precondition: &mms.MemoryPrecondition{ContentSHA256: mms.ContentSHA256("one")}})
	require.ErrorIs(t, err, mms.ErrMemoryPreconditionFailed)
	require.ErrorIs(t, err, mms.ErrMaybeApplied)
	got, err := c.MemoryStores.Memories.Get(ctx, f.memoryStore, m.ID, mms.MemoryGetParams{View: mms.MemoryViewFull})
	require.NoError(t, err)
	require.NotNil(t, got.Content)
	assert.Equal(t, "two", *got.Content)
}

// alwaysFailing is a server answering every request 500, counting them.
func alwaysFailing(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n.Add(1)
		w.Header().Set("Retry-After-Ms", "1")
		w.WriteHeader(500)
		io.WriteString(w, `{"type":"error","error":{"type":"api_error","message":"down"}}`)
	}))
	t.Cleanup(s.Close)
	return s, &n
}

// TestRetryBudgetDefaultBoundsAnOutage: against a service that always
// fails, the default budget (500 tokens, 5 a retry) pays for 100 retries
// and then each call is sent once; without the budget every call makes
// its three attempts.
func TestRetryBudgetDefaultBoundsAnOutage(t *testing.T) {
	s, n := alwaysFailing(t)
	c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(s.URL))
	require.NoError(t, err)
	const calls = 80
	var last error
	for range calls {
		last = c.Do(context.Background(), "GET", "/v1/models", nil, nil)
	}
	assert.Equal(t, int32(calls+100), n.Load())
	assert.ErrorIs(t, last, mms.ErrRetryBudgetExhausted)
	var apiErr *mms.Error
	assert.ErrorAs(t, last, &apiErr)

	n.Store(0)
	off, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(s.URL), option.WithoutRetryBudget())
	require.NoError(t, err)
	for range calls {
		off.Do(context.Background(), "GET", "/v1/models", nil, nil)
	}
	assert.Equal(t, int32(3*calls), n.Load())
}

// TestRetryBudgetDrainsAndRefills: a small budget drains on failing
// retries, refuses the next retry, and refills from successes.
func TestRetryBudgetDrainsAndRefills(t *testing.T) {
	e500 := reply{status: 500, header: fast}
	ok := reply{status: 200, body: `{}`}
	s := newScriptServer(t,
		e500, e500, e500, // call 1: two retries take 10: empty
		e500,   // call 2: its retry is refused
		ok, ok, // calls 3 and 4 succeed: 2 each, 4 in all
		e500,   // call 5: a retry costs 5 > 4: refused
		ok, ok, // calls 6 and 7: 8
		e500, ok, // call 8: one retry (3 left); its success refunds it and adds 2: 10
	)
	c := newTestClient(t, s, option.WithRetryBudget(option.RetryBudget{Capacity: 10, RetryCost: 5, TimeoutCost: 10, SuccessRefill: 2}))
	do := func() error { return c.Do(context.Background(), "GET", "/v1/models", nil, nil) }
	require.ErrorIs(t, do(), mms.ErrAPI)
	assert.Len(t, s.requests(), 3)
	err := do()
	require.ErrorIs(t, err, mms.ErrRetryBudgetExhausted)
	assert.Len(t, s.requests(), 4)
	require.NoError(t, do())
	require.NoError(t, do())
	require.ErrorIs(t, do(), mms.ErrRetryBudgetExhausted)
	assert.Len(t, s.requests(), 7)
	require.NoError(t, do())
	require.NoError(t, do())
	var md mms.ResponseMetadata
	require.NoError(t, c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithResponseMetadata(&md)))
	assert.Equal(t, 2, md.Attempts, "the refilled budget paid for a retry")
}

// TestRetryBudgetOptions: the budget is a client option; a call may
// switch it off; negative sizes are refused.
func TestRetryBudgetOptions(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s)
	err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithRetryBudget(option.RetryBudget{Capacity: 1}))
	require.ErrorContains(t, err, "client option")
	assert.Empty(t, s.requests())
	require.NoError(t, c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithoutRetryBudget()))
	_, err = mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(s.URL), option.WithRetryBudget(option.RetryBudget{RetryCost: -1}))
	require.ErrorContains(t, err, "WithRetryBudget")
}
