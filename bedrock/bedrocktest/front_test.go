package bedrocktest_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/bedrock/bedrocktest"
	"github.com/mms-sdk/mms-go/mmstest"
)

const model = "mms-large-1"

var invokeBody = `{"vendor_version":"bedrock-2023-05-31","max_tokens":64,"messages":[{"role":"user","content":"Hello"}]}`

type signing struct {
	service string
	creds   aws.Credentials
	bearer  string
	none    bool
	tamper  bool // sign one body, send another
}

func sigv4() signing {
	return signing{service: "bedrock", creds: aws.Credentials{AccessKeyID: bedrocktest.AccessKeyID,
		SecretAccessKey: bedrocktest.SecretAccessKey, SessionToken: bedrocktest.SessionToken}}
}

// send signs and sends one raw request, as the adapter would.
func send(t *testing.T, srv *mmstest.Server, path, body string, s signing) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Vendor-Version", "2023-06-01")
	switch {
	case s.none:
	case s.bearer != "":
		req.Header.Set("Authorization", "Bearer "+s.bearer)
	default:
		signed := body
		if s.tamper {
			signed += " "
		}
		sum := sha256.Sum256([]byte(signed))
		if err := v4.NewSigner().SignHTTP(context.Background(), s.creds, req, hex.EncodeToString(sum[:]), s.service, bedrocktest.Region, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func newFront(t *testing.T, opts ...bedrocktest.Option) (*bedrocktest.Server, *mmstest.Server) {
	front := bedrocktest.Front(opts...)
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	t.Cleanup(srv.Close)
	return front, srv
}

// awsError reads Bedrock's error answer.
func awsError(t *testing.T, resp *http.Response) (int, string, string) {
	t.Helper()
	var body struct{ Message string }
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("error body %s: %v", raw, err)
	}
	exc, _, _ := strings.Cut(resp.Header.Get("X-Amzn-Errortype"), ":")
	return resp.StatusCode, exc, body.Message
}

func TestFrontInvoke(t *testing.T) {
	_, srv := newFront(t)
	resp := send(t, srv, "/model/"+model+"/invoke", invokeBody, sigv4())
	raw, _ := io.ReadAll(resp.Body)
	var msg struct {
		Type, Model string
		Content     []struct{ Text string }
	}
	if err := json.Unmarshal(raw, &msg); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s: %v", resp.StatusCode, raw, err)
	}
	if msg.Type != "message" || msg.Model != model || len(msg.Content) != 1 || msg.Content[0].Text != "You said: Hello" {
		t.Errorf("reply %s", raw)
	}
	if resp.Header.Get("X-Amzn-Requestid") == "" || resp.Header.Get("Request-Id") == "" {
		t.Errorf("request ids missing: %v", resp.Header)
	}
}

func TestFrontStreamFrames(t *testing.T) {
	front, srv := newFront(t)
	front.ExceptionAfter(2, "throttlingException", "Too many tokens")
	for _, tc := range []struct {
		name      string
		exception bool
	}{{"exception after two chunks", true}, {"whole stream", false}} {
		t.Run(tc.name, func(t *testing.T) {
			resp := send(t, srv, "/model/"+model+"/invoke-with-response-stream", invokeBody, sigv4())
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/vnd.amazon.eventstream" ||
				resp.Header.Get("X-Amzn-Requestid") == "" {
				t.Fatalf("%d %v", resp.StatusCode, resp.Header)
			}
			dec := eventstream.NewDecoder()
			var types []string
			for {
				m, err := dec.Decode(resp.Body, nil) // checks both CRCs
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				switch m.Headers.Get(":message-type").String() {
				case "event":
					var c struct{ Bytes []byte }
					var ev struct{ Type string }
					if err := json.Unmarshal(m.Payload, &c); err != nil || json.Unmarshal(c.Bytes, &ev) != nil {
						t.Fatalf("chunk %s", m.Payload)
					}
					types = append(types, ev.Type)
				case "exception":
					types = append(types, m.Headers.Get(":exception-type").String()+": "+string(m.Payload))
				}
			}
			want := []string{"message_start", "content_block_start", `throttlingException: {"message":"Too many tokens"}`}
			if !tc.exception {
				if len(types) < 4 || types[len(types)-1] != "message_stop" || types[0] != "message_start" {
					t.Errorf("events %v", types)
				}
				return
			}
			if diff := cmp.Diff(want, types); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFrontAuthentication(t *testing.T) {
	_, srv := newFront(t, bedrocktest.WithBearerTokens("good-token"))
	wrongKey := sigv4()
	wrongKey.creds.SecretAccessKey = "other"
	unknownKey := sigv4()
	unknownKey.creds.AccessKeyID = "AKIDOTHER"
	noSession := sigv4()
	noSession.creds.SessionToken = ""
	mantleScope := sigv4()
	mantleScope.service = "bedrock-mantle"
	tampered := sigv4()
	tampered.tamper = true
	tests := []struct {
		name    string
		s       signing
		status  int
		errType string
	}{
		{"sigv4", sigv4(), 200, ""},
		{"bearer", signing{bearer: "good-token"}, 200, ""},
		{"unknown bearer", signing{bearer: "bad-token"}, 403, "UnrecognizedClientException"},
		{"none", signing{none: true}, 403, "MissingAuthenticationTokenException"},
		{"wrong secret", wrongKey, 403, "InvalidSignatureException"},
		{"unknown key", unknownKey, 403, "UnrecognizedClientException"},
		{"no session token", noSession, 403, "UnrecognizedClientException"},
		{"scoped to another service", mantleScope, 403, "InvalidSignatureException"},
		{"body not the one signed", tampered, 403, "InvalidSignatureException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := send(t, srv, "/model/"+model+"/invoke", invokeBody, tt.s)
			if tt.status == 200 {
				if resp.StatusCode != 200 {
					b, _ := io.ReadAll(resp.Body)
					t.Fatalf("%d %s", resp.StatusCode, b)
				}
				return
			}
			status, exc, _ := awsError(t, resp)
			if status != tt.status || exc != tt.errType {
				t.Errorf("got %d %s, want %d %s", status, exc, tt.status, tt.errType)
			}
		})
	}
}

func TestFrontBodyRules(t *testing.T) {
	_, srv := newFront(t)
	tests := []struct {
		name, body string
		status     int
		msg        string
	}{
		{"valid", invokeBody, 200, ""},
		{"with betas", `{"vendor_version":"bedrock-2023-05-31","vendor_beta":[],"max_tokens":64,"messages":[{"role":"user","content":"Hi"}]}`, 200, ""},
		{"no vendor_version", `{"max_tokens":64,"messages":[{"role":"user","content":"Hi"}]}`, 400, "required key [vendor_version]"},
		{"other vendor_version", `{"vendor_version":"2023-06-01","max_tokens":64,"messages":[]}`, 400, "#/vendor_version"},
		{"model in the body", `{"vendor_version":"bedrock-2023-05-31","model":"m","max_tokens":64,"messages":[]}`, 400, "[model]"},
		{"stream in the body", `{"vendor_version":"bedrock-2023-05-31","stream":false,"max_tokens":64,"messages":[]}`, 400, "[stream]"},
		{"vendor_beta a string", `{"vendor_version":"bedrock-2023-05-31","vendor_beta":"b","max_tokens":64,"messages":[]}`, 400, "#/vendor_beta"},
		{"not an object", `[1]`, 400, "not a JSON object"},
		{"service rule: the fake's 400", `{"vendor_version":"bedrock-2023-05-31","messages":[{"role":"user","content":"Hi"}]}`, 400, "max_tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := send(t, srv, "/model/"+model+"/invoke", tt.body, sigv4())
			if tt.status == 200 {
				if resp.StatusCode != 200 {
					b, _ := io.ReadAll(resp.Body)
					t.Fatalf("%d %s", resp.StatusCode, b)
				}
				return
			}
			status, exc, msg := awsError(t, resp)
			if status != tt.status || exc != "ValidationException" || !strings.Contains(msg, tt.msg) {
				t.Errorf("got %d %s %q, want %d ValidationException containing %q", status, exc, msg, tt.status, tt.msg)
			}
		})
	}
}

// TestFrontLimit: 20,000,000 bytes pass the limit, one more is a 413.
func TestFrontLimit(t *testing.T) {
	front, srv := newFront(t)
	for _, tc := range []struct {
		size   int
		status int
	}{{bedrocktest.MaxBodySize, 400}, {bedrocktest.MaxBodySize + 1, 413}} {
		// A JSON object of exactly size bytes, refused by the body rules
		// (no vendor_version) if it passes the limit.
		body := `{"x":"` + strings.Repeat("a", tc.size-8) + `"}`
		resp := send(t, srv, "/model/"+model+"/invoke", body, sigv4())
		status, exc, _ := awsError(t, resp)
		if status != tc.status || exc != "ValidationException" {
			t.Errorf("size %d: %d %s, want %d", tc.size, status, exc, tc.status)
		}
	}
	if n := len(front.Attempts()); n != 2 {
		t.Errorf("%d attempts recorded", n)
	}
}

func TestFrontErrorsAndFailures(t *testing.T) {
	front, srv := newFront(t)
	front.FailNext(503, "ServiceUnavailableException", "Bedrock is busy")
	resp := send(t, srv, "/model/"+model+"/invoke", invokeBody, sigv4())
	if status, exc, msg := awsError(t, resp); status != 503 || exc != "ServiceUnavailableException" || msg != "Bedrock is busy" {
		t.Errorf("FailNext: %d %s %q", status, exc, msg)
	}
	resp = send(t, srv, "/model/no-such-model/invoke", invokeBody, sigv4())
	if status, exc, _ := awsError(t, resp); status != 404 || exc != "ResourceNotFoundException" || resp.Header.Get("X-Amzn-Requestid") == "" {
		t.Errorf("unknown model: %d %s", status, exc)
	}
	srv.FailNext("/v1/messages", 529)
	resp = send(t, srv, "/model/"+model+"/invoke", invokeBody, sigv4())
	if status, exc, _ := awsError(t, resp); status != 503 || exc != "ServiceUnavailableException" {
		t.Errorf("the service's 529: %d %s", status, exc)
	}
	resp = send(t, srv, "/model/"+model+"/converse", invokeBody, sigv4())
	if status, exc, _ := awsError(t, resp); status != 404 || exc != "UnknownOperationException" {
		t.Errorf("unknown operation: %d %s", status, exc)
	}
}

func TestFrontMantle(t *testing.T) {
	front, srv := newFront(t, bedrocktest.WithBearerTokens("tok"))
	body := `{"model":"` + model + `","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"Hello"}]}`
	mantle := sigv4()
	mantle.service = "bedrock-mantle"
	for _, s := range []signing{mantle, {bearer: "tok"}} {
		resp := send(t, srv, "/vendor/v1/messages", body, s)
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") ||
			!bytes.Contains(raw, []byte("event: message_stop")) || resp.Header.Get("X-Amzn-Requestid") == "" {
			t.Errorf("%d %v %s", resp.StatusCode, resp.Header, raw)
		}
	}
	resp := send(t, srv, "/vendor/v1/messages", body, sigv4()) // scoped to "bedrock"
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 403 || !bytes.Contains(raw, []byte(`"type":"error"`)) {
		t.Errorf("wrong service: %d %s", resp.StatusCode, raw)
	}
	if a := front.Attempts(); len(a) != 3 || a[0].Service != "bedrock-mantle" || a[1].Auth != "bearer" || a[0].Signature == "" {
		t.Errorf("attempts %+v", a)
	}
}
