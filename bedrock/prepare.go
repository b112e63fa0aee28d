package bedrock

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/mms-sdk/mms-go/platform"
)

// Prepare maps a call onto the variant: InvokeModel's model path, body
// members and limit, or Mantle's unchanged paths. Endpoints the variant
// lacks are refused before anything is sent.
func (a *adapter) Prepare(r *platform.Request) error {
	if r.Endpoint != platform.Messages {
		return &platform.UnsupportedError{Platform: a.Name(), Endpoint: r.Endpoint, Method: r.Method, Path: r.Path}
	}
	if a.mantle {
		return nil // the service's own path, body and beta header
	}
	if r.Model == "" {
		return errors.New("bedrock: a Messages call needs a model: it names the InvokeModel path")
	}
	if !r.HasJSONBody {
		return fmt.Errorf("bedrock: %s %s has no JSON body to send to InvokeModel", r.Method, r.Path)
	}
	action := "invoke"
	if r.Stream {
		action = "invoke-with-response-stream"
		r.Header.Set("Accept", "application/vnd.amazon.eventstream")
		r.Header.Set("X-Amzn-Bedrock-Accept", "application/json")
	} else {
		r.Header.Set("Accept", "application/json")
	}
	r.Path = "/model/" + escapeModel(r.Model) + "/" + action
	r.Query.Del("beta")

	r.DeleteMember("model")
	r.DeleteMember("stream")
	r.SetDefaultMember("vendor_version", json.RawMessage(`"`+Version+`"`))
	if len(r.Betas) > 0 {
		betas, err := json.Marshal(r.Betas)
		if err != nil {
			return fmt.Errorf("bedrock: encoding the betas: %w", err)
		}
		r.SetMember("vendor_beta", betas)
	}
	r.Header.Del("vendor-beta") // InvokeModel takes betas in the body only
	if r.MaxBodySize <= 0 || r.MaxBodySize > MaxBodySize {
		r.MaxBodySize = MaxBodySize
	}
	return nil
}

// escapeModel escapes a model id (or an ARN) as one path segment,
// encoding ':' too, as AWS's own clients do.
func escapeModel(model string) string {
	return strings.ReplaceAll(url.PathEscape(model), ":", "%3A")
}
