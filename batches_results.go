package mms

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/option"
)

// Results streams the results of an ended batch
// (GET /v1/messages/batches/{message_batch_id}/results, the batch's
// results_url, sent with "Accept: application/x-jsonl"): one [BatchResult]
// per line of the JSONL file, in the file's order, which is unrelated to
// the order of the requests. Match results to requests by CustomID.
//
// The request is sent when the loop starts, and the file is read as the
// loop goes: memory use stays flat whatever the file's size (one line at a
// time; a line of any length is read whole). Breaking out of the loop
// closes the connection. Ranging the sequence again downloads the file
// again.
//
// A line that is not a valid result is yielded as a *[BatchResultLineError]
// in its place, naming its line number (1-based) and, when it can be read,
// its custom_id; the loop then goes on with the next line, or the caller
// breaks out. Blank lines are skipped. Any other error ends the sequence
// and is yielded once, last: an *[Error] from the service (a batch still
// processing has no results yet) or a read error.
func (s *BatchesService) Results(ctx context.Context, batchID string, opts ...option.RequestOption) iter.Seq2[BatchResult, error] {
	path, err := batchPath(batchID, "/results")
	if err != nil {
		return listError[BatchResult](err)
	}
	return func(yield func(BatchResult, error) bool) {
		cl := s.client.newCall(opts)
		r := &request{method: http.MethodGet, path: path, accept: "application/x-jsonl", streaming: true}
		resp, err := cl.send(ctx, r)
		if err != nil {
			yieldError(yield, err)
			return
		}
		// option.WithStreamIdleTimeout applies here as to message streams.
		body := resp.Body
		var idle *idleReader
		if cl.cfg.StreamIdle > 0 {
			idle = newIdleReader(resp.Body, cl.cfg.StreamIdle)
			body = idle
		}
		defer body.Close()
		var stopped bool
		results := 0
		n, err := eachLine(body, func(n int, line []byte) error {
			res, err := decodeScrubbed(line, resp.Scrub)
			if err != nil {
				err = &BatchResultLineError{BatchID: batchID, Line: n, CustomID: lineCustomID(line), Err: err}
			} else {
				results++
			}
			if !yield(res, err) {
				stopped = true
				return errStop
			}
			return nil
		})
		if err != nil && !stopped {
			if idle != nil && idle.fired.Load() {
				err = &StreamIdleError{Timeout: idle.timeout, Events: results}
			}
			yieldError(yield, fmt.Errorf("mms: results of batch %s, line %d: %w", batchID, n, err))
		}
	}
}

// BatchResultLineError reports a line of a batch's results file that is
// not a valid result. [BatchesService.Results] yields it in the line's
// place and goes on with the next line when the loop continues.
type BatchResultLineError struct {
	// BatchID is the batch whose results were read.
	BatchID string
	// Line is the line's number in the file, 1-based (blank lines count).
	Line int
	// CustomID is the line's custom_id when it could be read, else "".
	CustomID string
	// Err says what is wrong with the line.
	Err error
}

// Error names the batch, the line and its custom_id when known, then the
// line's error.
func (e *BatchResultLineError) Error() string {
	if e.CustomID != "" {
		return fmt.Sprintf("mms: results of batch %s, line %d (custom_id %q): %v", e.BatchID, e.Line, e.CustomID, e.Err)
	}
	return fmt.Sprintf("mms: results of batch %s, line %d: %v", e.BatchID, e.Line, e.Err)
}

// Unwrap returns Err.
func (e *BatchResultLineError) Unwrap() error { return e.Err }

// lineCustomID returns the custom_id of a results line that did not decode,
// or "" when none can be read: the line's top-level member when the line
// is a readable object, else the first "custom_id" member in its text (the
// service writes custom_id first).
func lineCustomID(line []byte) string {
	var id string
	err := codec.EachMember(line, func(key string, value []byte) error {
		if key != "custom_id" {
			return nil
		}
		_ = json.Unmarshal(value, &id)
		return errStop
	})
	if err == nil || errors.Is(err, errStop) {
		return id
	}
	const key = `"custom_id"`
	for rest := line; ; {
		i := bytes.Index(rest, []byte(key))
		if i < 0 {
			return ""
		}
		escaped := i > 0 && rest[i-1] == '\\'
		rest = bytes.TrimLeft(rest[i+len(key):], " \t")
		if escaped || len(rest) == 0 || rest[0] != ':' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t")
		if len(rest) == 0 || rest[0] != '"' {
			return ""
		}
		// Decode reads the string alone, whatever follows it.
		if json.NewDecoder(bytes.NewReader(rest)).Decode(&id) != nil {
			return ""
		}
		return id
	}
}

// errStop ends eachLine early without an error to report.
var errStop = errors.New("stop")

// lineChunk is the read buffer of eachLine: lines up to this size are
// handed over without a copy; longer ones are gathered into a buffer that
// grows as needed.
const lineChunk = 64 << 10

// keepLongLine is the largest gathering buffer eachLine keeps for the next
// long line; a larger one is dropped after use so that one huge line does
// not pin its memory for the rest of the file.
const keepLongLine = 1 << 20

// eachLine calls fn with the number (1-based) and the bytes of each
// non-blank line of r (without its line terminator and surrounding white
// space), in order, until r ends or fn returns an error. It returns the number of the line being handled when it
// stopped (1-based) and the error of fn or of the read; a clean end of r
// is no error. The line passed to fn is only valid during the call.
func eachLine(r io.Reader, fn func(n int, line []byte) error) (int, error) {
	br := bufio.NewReaderSize(r, lineChunk)
	var long []byte
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		switch {
		case err == io.EOF && len(line) == 0:
			return n, nil
		case err != nil && err != io.EOF:
			return n, err
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if ferr := fn(n, line); ferr != nil {
				return n, ferr
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if cap(long) > keepLongLine {
			long = nil
		}
	}
}

// decodeScrubbed decodes one line of a results file, hiding the secrets
// the download carried from the lines that become errors: a service may
// echo a credential in a request's error, and an invalid line is quoted in
// its error. Succeeded lines are the caller's data and are not rewritten.
func decodeScrubbed(line []byte, sc *transport.Scrubber) (BatchResult, error) {
	res, err := decodeBatchResultLine(line)
	if _, errored := res.Result.(ErroredBatchResult); err == nil && !errored {
		return res, nil
	}
	if clean := sc.Bytes(line); !bytes.Equal(clean, line) {
		return decodeBatchResultLine(clean)
	}
	return res, err
}

// decodeBatchResultLine decodes one line of a results file. The bytes are
// checked once here, where they enter the SDK, as decodeInto does.
func decodeBatchResultLine(line []byte) (BatchResult, error) {
	if err := codec.Valid(line); errors.Is(err, codec.ErrTooDeep) {
		return BatchResult{}, err
	} else if err != nil {
		return BatchResult{}, fmt.Errorf("not valid JSON: %q", excerpt(line))
	}
	if line[0] != '{' {
		return BatchResult{}, fmt.Errorf("not a JSON object: %q", excerpt(line))
	}
	var res BatchResult
	if err := unmarshalJSON(line, &res); err != nil {
		return BatchResult{}, err
	}
	if res.Result == nil {
		return BatchResult{}, errors.New(`the line has no "result" object`)
	}
	return res, nil
}

// ---------------------------------------------------------------------------
// BatchResult

// BatchResult is one line of a batch's results file: the outcome of the
// request named CustomID. json.Marshal writes the line back without loss.
//
//mms:json
type BatchResult struct {
	// CustomID is the custom_id of the request.
	CustomID string `json:"custom_id"`
	// Result is the outcome: [SucceededBatchResult], [ErroredBatchResult],
	// [CanceledBatchResult], [ExpiredBatchResult] or [UnknownBatchResult].
	Result BatchResultValue `json:"result"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A BatchResultValue is the outcome of one batch request, told apart by its
// "type". Variants: [SucceededBatchResult], [ErroredBatchResult],
// [CanceledBatchResult], [ExpiredBatchResult] and [UnknownBatchResult].
type BatchResultValue interface {
	json.Marshaler
	isBatchResultValue()
}

// batchResultValueUnion is the table of BatchResultValue.
var batchResultValueUnion = codec.NewUnion[BatchResultValue]("BatchResultValue", UnknownBatchResult{}).
	Add("succeeded", SucceededBatchResult{}).
	Add("errored", ErroredBatchResult{}).
	Add("canceled", CanceledBatchResult{}).
	Add("expired", ExpiredBatchResult{})

// SucceededBatchResult is a "succeeded" result: the request completed and
// Message is the reply Messages.Create would have returned.
type SucceededBatchResult struct {
	Message Message `json:"message"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErroredBatchResult is an "errored" result: the request failed, for
// instance a validation error or a server error. Error is the error body
// the request got; [ErroredBatchResult.Err] gives it as an *[Error].
type ErroredBatchResult struct {
	Error ErrorResponse `json:"error"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Err returns the request's error as an *[Error], which matches the
// sentinels of its type with errors.Is (an invalid_request_error matches
// [ErrInvalidRequest]). As for an error event in a stream, StatusCode is
// 200, the status of the results download: the result carries no status of
// its own. Body holds the error body's JSON.
func (r ErroredBatchResult) Err() *Error {
	body, err := json.Marshal(r.Error)
	if err != nil { // Extra holding invalid JSON: keep what is modelled
		body, _ = json.Marshal(ErrorResponse{Error: ErrorDetail{Type: r.Error.Error.Type, Message: r.Error.Error.Message}, RequestID: r.Error.RequestID})
	}
	return newAPIError(http.StatusOK, nil, body, 0)
}

// CanceledBatchResult is a "canceled" result: the batch was canceled before
// the request ran.
type CanceledBatchResult struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ExpiredBatchResult is an "expired" result: the batch's 24 hours ran out
// before the request ran.
type ExpiredBatchResult struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownBatchResult holds a result type this version cannot name; Raw is
// written back verbatim.
type UnknownBatchResult struct {
	Type string
	Raw  json.RawMessage
}
