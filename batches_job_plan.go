package mms

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/maphash"
	"io"
	"os"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/idset"
)

// jobPlan is how the input is packed into batches: the store's "plan.json".
// It is written before the first create and compared on every later run,
// so that a changed input is refused instead of mixed with the old one.
type jobPlan struct {
	Version     int         `json:"version"`
	Requests    int64       `json:"requests"`
	MaxRequests int         `json:"max_requests_per_batch"`
	MaxBytes    int64       `json:"max_bytes_per_batch"`
	Chunks      []planChunk `json:"chunks"`
}

// planChunk is one batch of the plan: Count requests from input index
// First on, whose body has Bytes bytes and the SHA-256 digest SHA256.
type planChunk struct {
	First  int64  `json:"first"`
	Count  int    `json:"count"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

const jobPlanVersion = 1

// Batch bodies are `{"requests":[` item `,` item ... `]}`.
const (
	bodyOpen  = `{"requests":[`
	bodyClose = `]}`
)

// encodeItem appends the encoding of one request of a batch body:
// {"custom_id":"…","params":{…}}. The custom_id must be valid (it then
// needs no escaping).
func encodeItem(dst []byte, r *BatchRequest) ([]byte, error) {
	params, err := encodeMessageBody(&r.Params, "")
	if err != nil {
		return dst, err
	}
	dst = append(dst, `{"custom_id":"`...)
	dst = append(dst, r.CustomID...)
	dst = append(dst, `","params":`...)
	dst = append(dst, params...)
	return append(dst, '}'), nil
}

// packer cuts a stream of encoded items into chunks under the limits.
type packer struct {
	maxRequests int
	maxBytes    int64
	cur         planChunk
	digest      hash.Hash
	chunks      []planChunk
}

func newPacker(maxRequests int, maxBytes int64) *packer {
	return &packer{maxRequests: maxRequests, maxBytes: maxBytes, digest: sha256.New()}
}

// itemFits reports whether an item of n bytes fits in a batch at all.
func (k *packer) itemFits(n int) bool {
	return int64(len(bodyOpen)+n+len(bodyClose)) <= k.maxBytes
}

// add places item (input index i) in the current chunk, closing it first
// when the item would break a limit.
func (k *packer) add(i int64, item []byte) {
	if k.cur.Count > 0 && (k.cur.Count == k.maxRequests || k.cur.Bytes+1+int64(len(item)) > k.maxBytes) {
		k.close()
	}
	if k.cur.Count == 0 {
		k.cur = planChunk{First: i, Bytes: int64(len(bodyOpen) + len(bodyClose))}
		k.digest.Reset()
	} else {
		k.cur.Bytes++ // the comma
	}
	k.cur.Count++
	k.cur.Bytes += int64(len(item))
	k.digest.Write(item)
}

func (k *packer) close() {
	if k.cur.Count == 0 {
		return
	}
	k.cur.SHA256 = hex.EncodeToString(k.digest.Sum(nil))
	k.chunks = append(k.chunks, k.cur)
	k.cur = planChunk{}
}

// idsInMemory is how many custom_id hashes the uniqueness check holds in
// memory (16 bytes each) before it spills a sorted run to disk.
const idsInMemory = 1 << 16

// makePlan ranges the input once, checking every request, and packs it. The
// first broken rule is a *ValidationError naming the request; a repeated
// custom_id is found in bounded memory (internal/idset, spilling to
// SpoolDir) and confirmed by a second look at the input, since the set
// compares 64-bit hashes.
func (r *jobRun) makePlan() (*jobPlan, error) {
	j := r.job
	seed := maphash.MakeSeed()
	ids := idset.New(j.p.SpoolDir, idsInMemory)
	defer ids.Close()
	k := newPacker(j.p.MaxRequestsPerBatch, j.p.MaxBytesPerBatch)
	var (
		n    int64
		item []byte
		err  error
	)
	cl := j.batches.client.newCall(r.opts())
	if cl.err != nil {
		return nil, cl.err
	}
	version := callVersion(cl.cfg) // the batches are created with it
	for req := range j.p.Requests {
		if err = r.ctx.Err(); err != nil {
			return nil, err
		}
		if err = checkJobRequest(n, &req, version); err != nil {
			return nil, err
		}
		if item, err = encodeItem(item[:0], &req); err != nil {
			return nil, fmt.Errorf("mms: encoding requests[%d] (custom_id %q): %w", n, req.CustomID, err)
		}
		if !k.itemFits(len(item)) {
			return nil, invalid(requestPath(n, req.CustomID), "encodes to %d bytes, more than fits in one batch of at most %d bytes", len(item), k.maxBytes)
		}
		if err = ids.Add(maphash.String(seed, req.CustomID), n); err != nil {
			return nil, fmt.Errorf("mms: checking custom_ids for repeats: %w", err)
		}
		k.add(n, item)
		n++
	}
	if err := r.firstRepeat(ids, seed); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, invalid("requests", "must yield at least one request")
	}
	k.close()
	return &jobPlan{Version: jobPlanVersion, Requests: n, MaxRequests: k.maxRequests, MaxBytes: k.maxBytes, Chunks: k.chunks}, nil
}

// checkJobRequest checks one request's custom_id and params, the latter
// also against the refusals of the API version the batches are created
// with.
func checkJobRequest(i int64, req *BatchRequest, version string) error {
	path := "requests[" + strconv.FormatInt(i, 10) + "]"
	if err := validateCustomID(path+".custom_id", req.CustomID); err != nil {
		return err
	}
	err := req.Params.Validate()
	if err == nil {
		err = req.Params.checkVersion(version, "")
	}
	if err != nil {
		return prefixValidation(requestPath(i, req.CustomID)+".params", err)
	}
	return nil
}

// requestPath names input request i with its custom_id, for errors.
func requestPath(i int64, customID string) string {
	return "requests[" + strconv.FormatInt(i, 10) + "] (custom_id " + strconv.Quote(customID) + ")"
}

// firstRepeat turns the set's hash repeats into the first true repeated
// custom_id of the input, looking the candidates up in one more pass.
func (r *jobRun) firstRepeat(ids *idset.Set, seed maphash.Seed) error {
	repeats, _, err := ids.Repeats(1 << 10)
	if err != nil {
		return fmt.Errorf("mms: checking custom_ids for repeats: %w", err)
	}
	if len(repeats) == 0 {
		return nil
	}
	want := make(map[int64]string, 2*len(repeats))
	for _, rp := range repeats {
		want[rp.First], want[rp.Later] = "", ""
	}
	var i int64
	for req := range r.job.p.Requests {
		if _, ok := want[i]; ok {
			want[i] = req.CustomID
		}
		i++
	}
	for _, rp := range repeats { // sorted by Later: the first true repeat wins
		if id := want[rp.Later]; id == want[rp.First] {
			return invalid(requestPath(rp.Later, id)+".custom_id", "repeats requests[%d].custom_id; custom_ids must be unique across the job", rp.First)
		}
	}
	if len(repeats) == 1<<10 {
		// So many hash repeats that are not custom_id repeats cannot happen
		// with 64-bit hashes, short of an input that changes between passes.
		return errors.New("mms: the input yielded different requests when ranged again; a job's input must be the same every time")
	}
	return nil
}

// spool is one batch body being written to a temporary file, with the
// custom_ids it holds (in body order, one per line) and the betas its
// params need.
type spool struct {
	f      *os.File
	count  int
	bytes  int64
	digest hash.Hash
	sha    string // the digest, once finished
	ids    bytes.Buffer
	betas  []string
	item   []byte
}

func newSpool(dir string) (*spool, error) {
	f, err := os.CreateTemp(dir, "batch-body.tmp-*")
	if err != nil {
		return nil, fmt.Errorf("mms: creating a batch body file: %w", err)
	}
	s := &spool{f: f, digest: sha256.New()}
	if _, err := io.WriteString(f, bodyOpen); err != nil {
		s.remove()
		return nil, fmt.Errorf("mms: writing a batch body file: %w", err)
	}
	s.bytes = int64(len(bodyOpen) + len(bodyClose))
	return s, nil
}

// add encodes one request into the body.
func (s *spool) add(req *BatchRequest) error {
	var err error
	if s.item, err = encodeItem(s.item[:0], req); err != nil {
		return fmt.Errorf("mms: encoding custom_id %q: %w", req.CustomID, err)
	}
	if s.count > 0 {
		if _, err := s.f.Write([]byte{','}); err != nil {
			return fmt.Errorf("mms: writing a batch body file: %w", err)
		}
		s.bytes++
	}
	if _, err := s.f.Write(s.item); err != nil {
		return fmt.Errorf("mms: writing a batch body file: %w", err)
	}
	s.digest.Write(s.item)
	s.bytes += int64(len(s.item))
	s.count++
	s.ids.WriteString(req.CustomID)
	s.ids.WriteByte('\n')
	s.betas = appendNew(s.betas, req.Params.betas()...)
	return nil
}

// finish ends the body and sets its digest.
func (s *spool) finish() error {
	if _, err := io.WriteString(s.f, bodyClose); err != nil {
		return fmt.Errorf("mms: writing a batch body file: %w", err)
	}
	s.sha = hex.EncodeToString(s.digest.Sum(nil))
	return nil
}

// body returns a fresh reader over the finished body.
func (s *spool) body() io.Reader { return io.NewSectionReader(s.f, 0, s.bytes) }

func (s *spool) remove() {
	name := s.f.Name()
	_ = s.f.Close()
	_ = os.Remove(name)
}

// samePlan reports the first difference between the stored plan and the
// one made from the input now.
func samePlan(stored, now *jobPlan) error {
	changed := func(what string) error {
		return fmt.Errorf("mms: the job's input or limits changed since the job started (%s); resume with the same requests in the same order, or start a new job with a new store", what)
	}
	switch {
	case stored.Version != now.Version:
		return fmt.Errorf("mms: the job's store has plan version %d; this SDK writes version %d", stored.Version, now.Version)
	case stored.MaxRequests != now.MaxRequests || stored.MaxBytes != now.MaxBytes:
		return changed("batch limits")
	case stored.Requests != now.Requests:
		return changed(fmt.Sprintf("%d requests before, %d now", stored.Requests, now.Requests))
	case len(stored.Chunks) != len(now.Chunks):
		return changed("batch count")
	}
	for i := range stored.Chunks {
		if stored.Chunks[i] != now.Chunks[i] {
			return changed(fmt.Sprintf("batch %d of the plan, from requests[%d]", i+1, stored.Chunks[i].First))
		}
	}
	return nil
}

// mustJSON encodes a state record; the records hold nothing that cannot be
// encoded.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("mms: encoding batch job state: " + err.Error())
	}
	return b
}
