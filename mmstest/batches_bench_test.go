package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// BenchmarkBatchCreateAndSettle creates a batch of 10,000 small requests
// that ends at once (processing time 0), so each op validates, stores and
// runs every request.
func BenchmarkBatchCreateAndSettle(b *testing.B) {
	const n = 10_000
	var body bytes.Buffer
	body.WriteString(`{"requests":[`)
	for i := range n {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"custom_id":"r%d","params":%s}`, i, hiParams(fmt.Sprintf("number %d", i)))
	}
	body.WriteString(`]}`)
	s := NewServer(WithBatchProcessingTime(0))
	defer s.Close()
	b.SetBytes(int64(body.Len()))
	b.ReportAllocs()
	do := func(method, path string, body []byte) []byte {
		req, err := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
		require.NoError(b, err)
		req.Header.Set(wire.HeaderAPIKey, DefaultAPIKey)
		req.Header.Set(wire.HeaderVersion, wire.DefaultVersion)
		req.Header.Set(wire.HeaderContentType, "application/json")
		resp, err := s.Client().Do(req)
		require.NoError(b, err)
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s %s: status %d: %s", method, path, resp.StatusCode, out)
		}
		return out
	}
	for b.Loop() {
		var rec struct {
			ID            string      `json:"id"`
			RequestCounts batchCounts `json:"request_counts"`
		}
		if err := json.Unmarshal(do(http.MethodPost, batchesPath, body.Bytes()), &rec); err != nil || rec.RequestCounts.Succeeded != n {
			b.Fatalf("batch %+v (%v)", rec, err)
		}
		do(http.MethodDelete, batchesPath+"/"+rec.ID, nil) // keeps the server's memory flat
	}
}
