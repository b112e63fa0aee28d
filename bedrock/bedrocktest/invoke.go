package bedrocktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/mms-sdk/mms-go/platform"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// bodyVersion is the vendor_version InvokeModel accepts.
const bodyVersion = "bedrock-2023-05-31"

// serveInvoke applies InvokeModel's path and body rules, rewrites the
// request into the service's POST /v1/messages and translates the answer.
func (s *Server) serveInvoke(w http.ResponseWriter, r *http.Request, body []byte, service http.Handler) {
	segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/model/"), "/")
	model := ""
	if len(segs) == 2 {
		model, _ = url.PathUnescape(segs[0])
	}
	if model == "" || (segs[1] != "invoke" && segs[1] != "invoke-with-response-stream") {
		writeAWSError(w, http.StatusNotFound, "UnknownOperationException", "no operation at "+r.URL.EscapedPath())
		return
	}
	if r.Method != http.MethodPost {
		writeAWSError(w, http.StatusMethodNotAllowed, "ValidationException", "InvokeModel takes POST")
		return
	}
	stream := segs[1] == "invoke-with-response-stream"
	members, betas, msg := checkInvokeBody(body)
	if msg != "" {
		writeAWSError(w, http.StatusBadRequest, "ValidationException", "Malformed input request: "+msg)
		return
	}
	members["model"], _ = json.Marshal(model)
	if stream {
		members["stream"] = json.RawMessage("true")
	}
	newBody, _ := json.Marshal(members) // raw members re-encode as they came

	req := r.Clone(r.Context())
	req.URL.Path, req.URL.RawPath, req.URL.RawQuery = "/v1/messages", "", ""
	req.RequestURI = ""
	req.Body = io.NopCloser(bytes.NewReader(newBody))
	req.ContentLength = int64(len(newBody))
	req.Header.Set("Content-Length", strconv.Itoa(len(newBody)))
	for _, h := range []string{"Authorization", "X-Amz-Date", "X-Amz-Security-Token", "X-Amzn-Bedrock-Accept", "Accept"} {
		req.Header.Del(h)
	}
	if req.Header.Get("Vendor-Version") == "" {
		req.Header.Set("Vendor-Version", "2023-06-01")
	}
	if len(betas) > 0 {
		if h := req.Header.Get("Vendor-Beta"); h != "" {
			betas = append([]string{h}, betas...)
		}
		req.Header.Set("Vendor-Beta", strings.Join(betas, ","))
	}

	tw := &translator{w: w, header: http.Header{}, enc: eventstream.NewEncoder()}
	if stream {
		tw.exception = s.nextException()
	}
	service.ServeHTTP(tw, req)
	tw.finish()
}

// checkInvokeBody applies InvokeModel's body rules: a JSON object with
// vendor_version, without model or stream, with vendor_beta (if any) an
// array of strings. It returns the members left for the service and the
// betas, or the rule broken.
func checkInvokeBody(body []byte) (map[string]json.RawMessage, []string, string) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		return nil, nil, "the body is not a JSON object"
	}
	var version string
	if raw, ok := members["vendor_version"]; !ok {
		return nil, nil, "#: required key [vendor_version] not found"
	} else if json.Unmarshal(raw, &version) != nil || version != bodyVersion {
		return nil, nil, fmt.Sprintf("#/vendor_version: expected %q", bodyVersion)
	}
	for _, k := range []string{"model", "stream"} {
		if _, ok := members[k]; ok {
			return nil, nil, fmt.Sprintf("#: extraneous key [%s] is not permitted", k)
		}
	}
	var betas []string
	if raw, ok := members["vendor_beta"]; ok {
		if json.Unmarshal(raw, &betas) != nil || betas == nil {
			return nil, nil, "#/vendor_beta: expected type: JSONArray of strings"
		}
	}
	delete(members, "vendor_version")
	delete(members, "vendor_beta")
	return members, betas, ""
}

// serveMantle passes a Mantle request on under the service's own path.
func (s *Server) serveMantle(w http.ResponseWriter, r *http.Request, body []byte, service http.Handler) {
	req := r.Clone(r.Context())
	req.URL.Path = strings.TrimPrefix(r.URL.Path, "/"+vendor)
	req.URL.RawPath = ""
	req.RequestURI = ""
	req.Body = io.NopCloser(bytes.NewReader(body))
	for _, h := range []string{"Authorization", "X-Amz-Date", "X-Amz-Security-Token"} {
		req.Header.Del(h)
	}
	service.ServeHTTP(w, req)
}

// translator turns the service's answer into InvokeModel's: a stream's
// events into EventStream chunk frames as they come, an error body into
// AWS's shape, a JSON reply as it is.
type translator struct {
	w         http.ResponseWriter
	header    http.Header
	status    int
	streaming bool // the service answered with events: frames are going out
	decided   bool
	pending   bytes.Buffer // the non-stream body, or a stream's partial event
	enc       *eventstream.Encoder
	exception *exception
	events    int
	done      bool // an exception frame ended the stream
}

func (t *translator) Header() http.Header { return t.header }

func (t *translator) WriteHeader(status int) {
	if t.status == 0 {
		t.status = status
	}
}

func (t *translator) Write(p []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	t.decide()
	if t.done {
		return len(p), nil
	}
	t.pending.Write(p)
	if t.streaming {
		t.frames()
	}
	return len(p), nil
}

// Flush sends the frames written so far.
func (t *translator) Flush() {
	if t.streaming {
		if f, ok := t.w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// decide starts a stream's answer at the first write of a 2xx stream.
func (t *translator) decide() {
	if t.decided {
		return
	}
	t.decided = true
	if t.status >= 300 || !strings.HasPrefix(t.header.Get("Content-Type"), "text/event-stream") {
		return
	}
	t.streaming = true
	t.copyHeaders()
	t.w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	t.w.Header().Set("X-Amzn-Bedrock-Content-Type", "application/json")
	t.w.WriteHeader(t.status)
}

func (t *translator) copyHeaders() {
	for k, v := range t.header {
		if k != "Content-Length" && k != "Content-Type" {
			t.w.Header()[k] = v
		}
	}
}

// frames sends each complete event as a chunk frame, and the injected
// exception when its count is reached.
func (t *translator) frames() {
	for !t.done {
		buf := t.pending.Bytes()
		end := bytes.Index(buf, []byte("\n\n"))
		if end < 0 {
			return
		}
		data := sseData(buf[:end])
		t.pending.Next(end + 2)
		if data == nil {
			continue // a comment or an event without data
		}
		payload, _ := json.Marshal(struct {
			Bytes []byte `json:"bytes"`
		}{data})
		t.writeFrame("event", eventstream.Headers{
			{Name: ":event-type", Value: eventstream.StringValue("chunk")},
			{Name: ":content-type", Value: eventstream.StringValue("application/json")},
		}, payload)
		t.events++
		if e := t.exception; e != nil && t.events == e.after {
			payload, _ := json.Marshal(map[string]string{"message": e.message})
			t.writeFrame("exception", eventstream.Headers{
				{Name: ":exception-type", Value: eventstream.StringValue(e.exception)},
				{Name: ":content-type", Value: eventstream.StringValue("application/json")},
			}, payload)
			t.done = true
		}
	}
}

func (t *translator) writeFrame(kind string, hs eventstream.Headers, payload []byte) {
	hs = append(eventstream.Headers{{Name: ":message-type", Value: eventstream.StringValue(kind)}}, hs...)
	_ = t.enc.Encode(t.w, eventstream.Message{Headers: hs, Payload: payload}) // a write error is the client gone
}

// sseData returns the data of one server-sent event, nil for none.
func sseData(event []byte) []byte {
	var data [][]byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(d, []byte(" ")))
		}
	}
	if data == nil {
		return nil
	}
	return bytes.Join(data, []byte("\n"))
}

// finish answers a reply that was not a stream: a JSON reply as it is, an
// error body in AWS's shape.
func (t *translator) finish() {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	t.decide()
	if t.streaming {
		return
	}
	if t.status < 400 {
		t.copyHeaders()
		t.w.Header().Set("Content-Type", t.header.Get("Content-Type"))
		t.w.WriteHeader(t.status)
		_, _ = t.w.Write(t.pending.Bytes())
		return
	}
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(t.pending.Bytes(), &e) // a body that is not the service's keeps the status
	status, exc := awsException(e.Error.Type, t.status)
	t.copyHeaders()
	writeAWSError(t.w, status, exc, e.Error.Message)
}

// awsException maps the service's error type to Bedrock's status and
// exception.
func awsException(errType string, status int) (int, string) {
	switch errType {
	case platform.InvalidRequestError:
		return http.StatusBadRequest, "ValidationException"
	case platform.PermissionError, platform.AuthenticationError, platform.BillingError:
		return http.StatusForbidden, "AccessDeniedException"
	case platform.NotFoundError:
		return http.StatusNotFound, "ResourceNotFoundException"
	case platform.RequestTooLarge:
		return http.StatusRequestEntityTooLarge, "ValidationException"
	case platform.RateLimitError:
		return http.StatusTooManyRequests, "ThrottlingException"
	case platform.OverloadedError:
		return http.StatusServiceUnavailable, "ServiceUnavailableException"
	case platform.TimeoutError:
		return http.StatusRequestTimeout, "ModelTimeoutException"
	}
	if status < 500 {
		return status, "ValidationException"
	}
	return status, "InternalServerException"
}

// vendorErrorType names the service's error type for a status (Mantle).
func vendorErrorType(status int) string {
	switch status {
	case 400:
		return platform.InvalidRequestError
	case 401:
		return platform.AuthenticationError
	case 403:
		return platform.PermissionError
	case 404:
		return platform.NotFoundError
	case 413:
		return platform.RequestTooLarge
	case 429:
		return platform.RateLimitError
	case 503, 529:
		return platform.OverloadedError
	case 504:
		return platform.TimeoutError
	}
	return platform.APIError
}

// writeAWSError writes Bedrock's error answer: {"message"} and
// x-amzn-ErrorType.
func writeAWSError(w http.ResponseWriter, status int, exception, message string) {
	body, _ := json.Marshal(map[string]string{"message": message})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-Errortype", exception+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeServiceError writes the service's own error body (Mantle).
func writeServiceError(w http.ResponseWriter, status int, errType, message string) {
	body := platform.ErrorBody(errType, message)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
