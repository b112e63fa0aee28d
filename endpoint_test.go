package mms

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/option"
)

// seenRequest is what the test server saw of one request.
type seenRequest struct {
	method, path, query, beta, body string
}

// recordingServer answers every request with reply(r) and records it.
func recordingServer(t *testing.T, reply func(r *http.Request) (int, string)) (*Client, func() []seenRequest) {
	t.Helper()
	var mu sync.Mutex
	var seen []seenRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, seenRequest{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Get("vendor-beta"), string(body)})
		mu.Unlock()
		status, out := reply(r)
		if out != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		fmt.Fprint(w, out)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
	require.NoError(t, err)
	return c, func() []seenRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]seenRequest(nil), seen...)
	}
}

// TestEndpointVerbs: each verb sends its method to its path with the
// endpoint's betas and query, the body in request form, and decodes the
// answer into a T.
func TestEndpointVerbs(t *testing.T) {
	c, seen := recordingServer(t, func(*http.Request) (int, string) { return 200, `{"id":"x_1","type":"thing"}` })
	e := endpoint[thing]{c: c, path: "/v1/things/x_1", betas: []string{"b-1"}, query: url.Values{"view": {"full"}}}
	ctx := context.Background()
	body := map[string]string{"name": "n"}
	calls := []struct {
		name string
		do   func() (*thing, error)
		want seenRequest
	}{
		{"get", func() (*thing, error) { return e.get(ctx, nil) }, seenRequest{"GET", "/v1/things/x_1", "view=full", "b-1", ""}},
		{"post", func() (*thing, error) { return e.post(ctx, body, nil) }, seenRequest{"POST", "/v1/things/x_1", "view=full", "b-1", `{"name":"n"}`}},
		{"action", func() (*thing, error) { return e.action(ctx, "/archive", nil, nil) }, seenRequest{"POST", "/v1/things/x_1/archive", "view=full", "b-1", ""}},
		{"delete", func() (*thing, error) { return e.delete(ctx, nil) }, seenRequest{"DELETE", "/v1/things/x_1", "view=full", "b-1", ""}},
	}
	for i, tt := range calls {
		got, err := tt.do()
		require.NoError(t, err, tt.name)
		assert.Equal(t, "x_1", got.ID, tt.name)
		require.Len(t, seen(), i+1)
		assert.Equal(t, tt.want, seen()[i], tt.name)
	}
}

// TestEndpointErrors: a bad option or an error answer comes back as the
// error with no value; a body-less answer is an error unless the endpoint
// allows it (emptyOK), when it gives a zero T.
func TestEndpointErrors(t *testing.T) {
	status := 404
	c, seen := recordingServer(t, func(*http.Request) (int, string) {
		if status == 204 {
			return 204, ""
		}
		return status, `{"type":"error","error":{"type":"not_found_error","message":"no"}}`
	})
	ctx := context.Background()
	e := endpoint[thing]{c: c, path: "/v1/things/x"}

	got, err := e.get(ctx, nil)
	var apiErr *Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 404, apiErr.StatusCode)
	assert.Nil(t, got)

	_, err = e.get(ctx, []option.RequestOption{option.WithAPIKey("")})
	require.Error(t, err)
	assert.Len(t, seen(), 1, "a bad option sends nothing")

	status = 204
	_, err = e.delete(ctx, nil)
	require.Error(t, err, "an empty answer does not decode")
	e.emptyOK = true
	got, err = e.delete(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, thing{}, *got)
}

// badParams are list params that fail validation.
type badParams struct{}

func (badParams) Validate() error    { return invalid("limit", "bad") }
func (badParams) listArgs() listArgs { panic("listArgs of params that failed validation") }

// startParams list from a fixed position.
type startParams struct{ args listArgs }

func (p startParams) Validate() error    { return nil }
func (p startParams) listArgs() listArgs { return p.args }

// TestEndpointList: list and listPage validate first and send nothing for
// bad params; they send the params' query with the start's paging member.
func TestEndpointList(t *testing.T) {
	c, seen := recordingServer(t, func(r *http.Request) (int, string) {
		return 200, `{"data":[{"id":"a"}],"has_more":false,"first_id":"a","last_id":"a"}`
	})
	ctx := context.Background()
	e := endpoint[thing]{c: c, path: "/v1/things", betas: []string{"b-1"}, scheme: idScheme}

	for _, err := range e.list(ctx, badParams{}, nil) {
		assert.ErrorIs(t, err, ErrInvalidParams)
	}
	_, err := e.listPage(ctx, badParams{}, nil)
	require.ErrorIs(t, err, ErrInvalidParams)
	assert.Empty(t, seen())

	p := startParams{listArgs{query: limitQuery(2), start: idStart("z", "")}}
	var ids []string
	for v, err := range e.list(ctx, p, nil) {
		require.NoError(t, err)
		ids = append(ids, v.ID)
	}
	assert.Equal(t, []string{"a"}, ids)
	page, err := e.listPage(ctx, p, nil)
	require.NoError(t, err)
	assert.False(t, page.HasMore)
	want := seenRequest{"GET", "/v1/things", "after_id=z&limit=2", "b-1", ""}
	assert.Equal(t, []seenRequest{want, want}, seen())
}

// TestListNext: the step of every scheme from one page, forwards and
// backwards.
func TestListNext(t *testing.T) {
	yes, no := true, false
	s := func(v string) *string { return &v }
	tests := []struct {
		name    string
		scheme  listScheme
		page    listPaging
		at      listPos
		want    listPos
		more    bool
		wantErr string
	}{
		{"id forwards", idScheme, listPaging{HasMore: &yes, FirstID: s("a"), LastID: s("b")}, listPos{}, listPos{afterID: "b"}, true, ""},
		{"id backwards", idScheme, listPaging{HasMore: &yes, FirstID: s("a"), LastID: s("b")}, idStart("", "c"), listPos{beforeID: "a", backward: true}, true, ""},
		{"id end", idScheme, listPaging{HasMore: &no, LastID: s("b")}, listPos{}, listPos{}, false, ""},
		{"id without has_more", idScheme, listPaging{LastID: s("b"), NextPage: s("n")}, listPos{}, listPos{}, false, ""},
		{"id without last_id", idScheme, listPaging{HasMore: &yes}, listPos{}, listPos{}, false, "gives no last_id"},
		{"cursor forwards", cursorScheme, listPaging{NextPage: s("n"), PrevPage: s("p")}, listPos{}, listPos{page: Cursor{Token: "n", Order: "asc"}}, true, ""},
		{"cursor has_more false", cursorScheme, listPaging{HasMore: &no, NextPage: s("n")}, listPos{}, listPos{}, false, ""},
		{"cursor empty next", cursorScheme, listPaging{NextPage: s("")}, listPos{}, listPos{}, false, ""},
		{"cursor backwards", cursorScheme, listPaging{HasMore: &no, NextPage: s("n"), PrevPage: s("p")}, listPos{backward: true}, listPos{page: Cursor{Token: "p", Order: "asc"}, backward: true}, true, ""},
		{"files, id page", idOrCursorScheme, listPaging{HasMore: &yes, LastID: s("b"), NextPage: s("n")}, listPos{}, listPos{afterID: "b"}, true, ""},
		{"files, cursor page", idOrCursorScheme, listPaging{NextPage: s("n")}, listPos{}, listPos{page: Cursor{Token: "n", Order: "asc"}}, true, ""},
		{"files, cursor page backwards", idOrCursorScheme, listPaging{NextPage: s("n"), PrevPage: s("p")}, idStart("", "c"), listPos{}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := listCall{path: "/v1/things", scheme: tt.scheme, order: ListOrderAsc}
			got, more, err := l.next(&tt.page, tt.at)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.more, more)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestFetchListPageHasMore: HasMore is has_more where the page sends it;
// without it, next_page decides in the cursor scheme only.
func TestFetchListPageHasMore(t *testing.T) {
	for _, tt := range []struct {
		scheme listScheme
		body   string
		want   bool
	}{
		{cursorScheme, `{"data":[],"next_page":"n"}`, true},
		{cursorScheme, `{"data":[],"next_page":"n","has_more":false}`, false},
		{idScheme, `{"data":[],"next_page":"n"}`, false},
		{idOrCursorScheme, `{"data":[],"next_page":"n"}`, false},
		{idOrCursorScheme, `{"data":[],"has_more":true,"next_page":"n"}`, true},
	} {
		c, _ := recordingServer(t, func(*http.Request) (int, string) { return 200, tt.body })
		l := listCall{call: c.newCall(nil), path: "/v1/things", scheme: tt.scheme}
		p, err := fetchListPage[thing](context.Background(), l, listPos{})
		require.NoError(t, err)
		assert.Equal(t, tt.want, p.HasMore, "%d %s", tt.scheme, tt.body)
		require.NotNil(t, p.NextPage, "%d %s", tt.scheme, tt.body)
		assert.Equal(t, "n", p.NextPage.Token)
	}
}

// TestEndpointListRefusesCursorOfOtherOrder: a start cursor issued under
// another order fails before anything is sent, in List and ListPage.
func TestEndpointListRefusesCursorOfOtherOrder(t *testing.T) {
	c, seen := recordingServer(t, func(*http.Request) (int, string) { return 200, `{"data":[]}` })
	e := endpoint[thing]{c: c, path: "/v1/things"}
	p := startParams{listArgs{query: url.Values{}, order: ListOrderAsc, start: listPos{page: Cursor{Token: "t", Order: ListOrderDesc}}}}
	_, err := e.listPage(context.Background(), p, nil)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "page", ve.Field)
	var errs []error
	for _, err := range e.list(context.Background(), p, nil) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.True(t, errors.As(errs[0], &ve))
	assert.Empty(t, seen())
}

// TestEndpointUploadDecodes: upload posts the form and decodes the answer.
func TestEndpointUploadDecodes(t *testing.T) {
	c, seen := recordingServer(t, func(*http.Request) (int, string) { return 200, `{"id":"f_1"}` })
	form := multipart.New()
	form.AddField("purpose", "test")
	got, err := endpoint[thing]{c: c, path: "/v1/files", betas: filesBetas}.upload(context.Background(), form, nil)
	require.NoError(t, err)
	assert.Equal(t, "f_1", got.ID)
	require.Len(t, seen(), 1)
	assert.Equal(t, "POST", seen()[0].method)
	assert.Contains(t, seen()[0].body, `name="purpose"`)
}

// TestEndpointID: id appends checked, escaped segments and chains through
// sub; the first bad id is a *ValidationError naming its field, later ids
// are not checked, and every verb answers it sending nothing.
func TestEndpointID(t *testing.T) {
	c, seen := recordingServer(t, func(*http.Request) (int, string) {
		return 200, `{"id":"x_1","data":[],"has_more":false}`
	})
	ctx := context.Background()
	base := endpoint[thing]{c: c, path: "/v1/vaults"}

	e := base.id("vault_id", "v 1").sub("/credentials").id("credential_id", "c/1")
	require.NoError(t, e.err)
	assert.Equal(t, "/v1/vaults/v%201/credentials/c%2F1", e.path)
	_, err := e.get(ctx, nil)
	require.NoError(t, err)
	require.Len(t, seen(), 1)
	assert.Equal(t, "/v1/vaults/v%201/credentials/c%2F1", seen()[0].path)

	for _, tt := range []struct {
		name, field string
		e           endpoint[thing]
	}{
		{"empty", "vault_id", base.id("vault_id", "")},
		{"dot", "vault_id", base.id("vault_id", ".")},
		{"dotdot", "vault_id", base.id("vault_id", "..")},
		{"dotdot before a parameter", "vault_id", base.id("vault_id", "..;x")},
		{"first wins", "vault_id", base.id("vault_id", "").sub("/credentials").id("credential_id", "")},
		{"chained", "credential_id", base.id("vault_id", "v_1").sub("/credentials").id("credential_id", "")},
		{"as keeps it", "vault_id", as[thing](as[seenRequest](base.id("vault_id", "")))},
	} {
		calls := map[string]func() error{
			"get":    func() error { _, err := tt.e.get(ctx, nil); return err },
			"post":   func() error { _, err := tt.e.post(ctx, map[string]string{}, nil); return err },
			"update": func() error { _, err := tt.e.update(ctx, map[string]string{}, nil); return err },
			"action": func() error { _, err := tt.e.action(ctx, "/archive", nil, nil); return err },
			"delete": func() error { _, err := tt.e.delete(ctx, nil); return err },
			"do": func() error {
				_, err := tt.e.do(ctx, http.MethodPut, "", nil, transport.Idempotent, transport.RemovesNothing, nil)
				return err
			},
			"listPage": func() error {
				_, err := tt.e.listPage(ctx, badParams{}, nil)
				return err
			},
			"list": func() error {
				for _, err := range tt.e.list(ctx, badParams{}, nil) {
					return err
				}
				return nil
			},
			"upload": func() error {
				_, err := tt.e.upload(ctx, multipart.New(), nil)
				return err
			},
		}
		for verb, call := range calls {
			err := call()
			var ve *ValidationError
			require.ErrorAs(t, err, &ve, "%s %s", tt.name, verb)
			assert.Equal(t, tt.field, ve.Field, "%s %s", tt.name, verb)
		}
	}
	assert.Len(t, seen(), 1, "a bad id sends nothing")
}

// checkedBody is a request body that validates itself.
type checkedBody struct {
	Name string `json:"name"`
	err  error
}

func (b checkedBody) Validate() error { return b.err }

// TestEndpointValidatesBody: post and action validate a body with a
// Validate method after the ids and send nothing when it fails; a body
// that passes (or has no Validate) is sent.
func TestEndpointValidatesBody(t *testing.T) {
	c, seen := recordingServer(t, func(*http.Request) (int, string) { return 200, `{"id":"x_1"}` })
	ctx := context.Background()
	e := endpoint[thing]{c: c, path: "/v1/things"}
	bad := checkedBody{Name: "n", err: invalid("name", "bad")}

	_, err := e.post(ctx, bad, nil)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "name", ve.Field)
	_, err = e.id("thing_id", "x_1").action(ctx, "/archive", bad, nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "name", ve.Field)
	_, err = e.id("thing_id", "").post(ctx, bad, nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "thing_id", ve.Field, "the id is checked before the body")
	assert.Empty(t, seen(), "a failing Validate sends nothing")

	_, err = e.post(ctx, checkedBody{Name: "n"}, nil)
	require.NoError(t, err)
	_, err = e.id("thing_id", "x_1").action(ctx, "/archive", checkedBody{Name: "m"}, nil)
	require.NoError(t, err)
	require.Len(t, seen(), 2)
	assert.Equal(t, seenRequest{"POST", "/v1/things", "", "", `{"name":"n"}`}, seen()[0])
	assert.Equal(t, seenRequest{"POST", "/v1/things/x_1/archive", "", "", `{"name":"m"}`}, seen()[1])
}

// TestEndpointChecked: checked records a params' Validate error after the
// ids, not over an earlier one, and the call sends nothing; withQuery sets
// the query sent.
func TestEndpointChecked(t *testing.T) {
	c, seen := recordingServer(t, func(*http.Request) (int, string) { return 200, `{"id":"x_1"}` })
	ctx := context.Background()
	e := endpoint[thing]{c: c, path: "/v1/things"}
	bad := checkedBody{err: invalid("view", "bad")}

	var ve *ValidationError
	_, err := e.id("thing_id", "x_1").checked(bad).get(ctx, nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "view", ve.Field)
	_, err = e.id("thing_id", "").checked(bad).get(ctx, nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "thing_id", ve.Field, "the id is checked first")
	assert.Empty(t, seen())

	_, err = e.id("thing_id", "x_1").checked(checkedBody{}).withQuery(url.Values{"view": {"full"}}).get(ctx, nil)
	require.NoError(t, err)
	require.Len(t, seen(), 1)
	assert.Equal(t, seenRequest{"GET", "/v1/things/x_1", "view=full", "", ""}, seen()[0])
}

// TestEndpointIDSubDelims: the sub-delimiters the newest SDKs leave as
// they are (! ' ( ) * , ;) go out unescaped.
func TestEndpointIDSubDelims(t *testing.T) {
	c, seen := recordingServer(t, func(*http.Request) (int, string) { return 200, `{"id":"x_1"}` })
	_, err := endpoint[thing]{c: c, path: "/v1/vaults"}.id("vault_id", "v!(1)*,;'x").get(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, seen(), 1)
	assert.Equal(t, "/v1/vaults/v!(1)*,;'x", seen()[0].path)
}
