package vertex

import (
	"encoding/json"
	"errors"
	"net/url"

	"github.com/mms-sdk/mms-go/platform"
)

// The adapter is a platform.Adapter.
var _ platform.Adapter = (*adapter)(nil)

// versionJSON is the vendor_version member's value.
var versionJSON = json.RawMessage(`"` + Version + `"`)

// Prepare maps Messages create and stream onto the model's rawPredict and
// streamRawPredict, count_tokens onto count-tokens:rawPredict, and refuses
// every other endpoint. Betas stay in the vendor-beta header; the beta=true
// query is dropped (Vertex's paths take no query).
func (a *adapter) Prepare(r *platform.Request) error {
	if a.err != nil {
		return a.err
	}
	switch r.Endpoint {
	case platform.Messages:
		if r.Model == "" {
			return errors.New("vertex: a Messages call needs a model: Vertex puts it in the path")
		}
		method := ":rawPredict"
		if r.Stream {
			method = ":streamRawPredict"
		}
		r.Path = a.modelPath(r.Model) + method
		r.DeleteMember("model")
	case platform.CountTokens:
		// The model stays in the body: the path names a pseudo-model.
		r.Path = a.modelPath("count-tokens") + ":rawPredict"
	default:
		return &platform.UnsupportedError{Platform: platformName, Endpoint: r.Endpoint, Method: r.Method, Path: r.Path}
	}
	if r.HasJSONBody {
		r.SetDefaultMember("vendor_version", versionJSON)
	}
	r.Query.Del("beta")
	if r.MaxBodySize <= 0 || r.MaxBodySize > MaxBodySize {
		r.MaxBodySize = MaxBodySize
	}
	return nil
}

// modelPath is the escaped path of a publisher model (a "/" in the model
// id is escaped; "@" and ":" are kept).
func (a *adapter) modelPath(model string) string {
	return "/v1/projects/" + url.PathEscape(a.project) + "/locations/" + url.PathEscape(a.region) +
		"/publishers/" + Publisher + "/models/" + url.PathEscape(model)
}
