package admin

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/mmstest"
)

// The transport itself refuses to send an admin key outside
// /v1/organizations/, whatever builds the request.
func TestTransportRefusesAdminKeyElsewhere(t *testing.T) {
	s := mmstest.NewServer()
	defer s.Close()
	c, err := NewClient(s.AdminClientOptions()...)
	require.NoError(t, err)
	for _, path := range []string{"/v1/messages", "/v1/models", "/v1/organizations", "/v1/organizationsX/me"} {
		var out map[string]any
		err := adminbridge.Send(context.Background(), c.cfg, nil, &adminbridge.Request{Method: "GET", Path: path, Out: &out, Credential: adminbridge.AdminKey})
		require.Error(t, err, path)
		assert.Contains(t, err.Error(), "admin key is only sent")
	}
	assert.Empty(t, s.Requests())
}
