package mmstest

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// TestBatchCreateAtTheByteLimit creates a batch whose body is exactly
// wire.LimitBatches (256 MiB) of ~5 KB requests. One byte more is refused
// before a byte is read: TestSizeLimitByContentLength.
func TestBatchCreateAtTheByteLimit(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("moves 256 MiB")
	}
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now)) // the batch never ends: only the create is measured
	limit := int(wire.LimitBatches)
	text := strings.Repeat("x", 5000)
	var body bytes.Buffer
	body.Grow(limit)
	body.WriteString(`{"requests":[`)
	n := 0
	for {
		item := fmt.Sprintf(`{"custom_id":"r%d","params":%s}`, n, hiParams(text))
		if body.Len()+2*len(item)+len(`,]}`) > limit {
			// The last request takes up what is left to the limit.
			pad := limit - body.Len() - len(item) - len(`,]}`)
			body.WriteString(fmt.Sprintf(`,{"custom_id":"r%d","params":%s}`, n, hiParams(text+strings.Repeat("y", pad))))
			n++
			break
		}
		if n > 0 {
			body.WriteByte(',')
		}
		body.WriteString(item)
		n++
	}
	body.WriteString(`]}`)
	if body.Len() != limit {
		t.Fatalf("built %d bytes, want %d", body.Len(), limit)
	}
	req := newReq(t, s, http.MethodPost, batchesPath, bytes.NewReader(body.Bytes()))
	req.Header.Set(wire.HeaderContentType, "application/json")
	resp, rb := send(t, s, req)
	if b := decodeBatch(t, resp, rb); b.RequestCounts["processing"] != n {
		t.Errorf("processing %d, want %d", b.RequestCounts["processing"], n)
	}
}
