package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Code-execution containers. A create request with a code_execution tool or
// a container member runs in a container, which the reply names; a request
// may reuse a container by id, but only one this server issued.

// containerLifetime is how long after its last use a container expires.
const containerLifetime = time.Hour

// containerWire is the response container object.
type containerWire struct {
	ID        string            `json:"id"`
	ExpiresAt string            `json:"expires_at"`
	Skills    []json.RawMessage `json:"skills"`
}

// useContainer returns the container of a create request, or nil when it
// uses none: the request's container when it names one this server issued
// (a 404 otherwise), else a new one. Its expiry moves to an hour from now,
// and skills given in the request replace the container's.
func (s *Server) useContainer(p *msgParams) (*containerWire, *apiError) {
	var req struct {
		ID     *string `json:"id"`
		Skills []struct {
			Type    string `json:"type"`
			SkillID string `json:"skill_id"`
			Version string `json:"version"`
		} `json:"skills"`
	}
	if id := ""; json.Unmarshal(p.Container, &id) == nil {
		req.ID = &id
	} else {
		_ = json.Unmarshal(p.Container, &req) // null, or the object the request form checked
	}
	execTool := false
	for _, t := range p.Tools {
		execTool = execTool || t.Type != nil && strings.HasPrefix(*t.Type, "code_execution_")
	}
	if !execTool && !present(p.Container) {
		return nil, nil
	}
	fresh := ""
	if req.ID == nil || *req.ID == "" {
		fresh = s.newID("container_")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var c *containerWire
	if fresh == "" {
		if c = s.containers[*req.ID]; c == nil {
			return nil, &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "container: " + *req.ID + " not found"}
		}
	} else {
		c = &containerWire{ID: fresh}
		s.containers[c.ID] = c
	}
	if req.Skills != nil {
		c.Skills = make([]json.RawMessage, 0, len(req.Skills))
		for _, sk := range req.Skills {
			if sk.Version == "" {
				sk.Version = "latest"
			}
			c.Skills = append(c.Skills, encodeJSON(sk))
		}
	}
	c.ExpiresAt = s.now().Add(containerLifetime).UTC().Format(time.RFC3339Nano)
	out := *c
	return &out, nil
}
