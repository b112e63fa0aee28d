package sse_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/mms-sdk/mms-go/internal/sse"
)

func ExampleDecoder_Next() {
	stream := "event: ping\ndata: {\"type\": \"ping\"}\n\n" +
		": comment\n" +
		"data: line one\ndata: line two\n\n"
	d := sse.NewDecoder(strings.NewReader(stream))
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			fmt.Println("stream truncated")
			break
		}
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Printf("%s: %q\n", ev.Type, ev.Data)
	}
	// Output:
	// ping: "{\"type\": \"ping\"}"
	// message: "line one\nline two"
}

// activityReader counts the bytes read through it. An idle-timeout watchdog
// would record the time of the last Read instead; the atomic makes the value
// safe to read from the watchdog's goroutine.
type activityReader struct {
	r     io.Reader
	bytes atomic.Int64
}

func (a *activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	a.bytes.Add(int64(n))
	return n, err
}

// The decoder has no activity hook: wrap the reader to see every arrival of
// bytes, including comments that never become events.
func ExampleNewDecoder_activity() {
	ar := &activityReader{r: strings.NewReader(": keep-alive\n\n: keep-alive\n\n")}
	d := sse.NewDecoder(ar)
	_, err := d.Next()
	fmt.Println(err, ar.bytes.Load())
	// Output:
	// EOF 28
}
