package mms

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// BatchJobStore keeps the state of a batch job, so that a job whose process
// was killed resumes where it stopped. It holds two kinds of entries under
// string keys: values, replaced whole by [BatchJobStore.Put], and logs,
// grown one record at a time by [BatchJobStore.Append].
//
// Keys are 1 to 128 characters of [a-z0-9._-], not starting with '.'; an
// invalid key is a *[ValidationError] for field "key". A key names a value
// or a log, never both: Put on a key that names a log, and Append on a key
// that names a value, fail with an error matching [fs.ErrExist].
//
// [BatchJobDir] keeps the state in a directory and [BatchJobMemoryStore] in
// memory; both are safe for concurrent use by the goroutines of one
// process. A store that can be shared by processes should also implement
// [BatchJobLocker], so that one process at a time runs the job:
// BatchJobDir does (a lock file), module batchstore/postgres's store does
// (a lease in the database).
type BatchJobStore interface {
	// Get returns the value saved under key, or an error matching
	// fs.ErrNotExist when none is.
	Get(ctx context.Context, key string) ([]byte, error)
	// Put saves value under key, replacing any earlier value, atomically (a
	// later Get sees the old value or the new one, never a mix) and durably
	// (kept across a crash once Put returns).
	Put(ctx context.Context, key string, value []byte) error
	// Append adds one record (1 or more bytes, no '\n' in it) to the log
	// under key, creating the log. Once Append returns the record survives a
	// crash of the process.
	Append(ctx context.Context, key string, record []byte) error
	// Records yields the log's records in the order they were appended; a
	// log that does not exist yields nothing. A last record cut short by a
	// crash is left out. An error is yielded once, last.
	Records(ctx context.Context, key string) iter.Seq2[[]byte, error]
	// Keys returns the keys of values and logs that start with prefix,
	// sorted.
	Keys(ctx context.Context, prefix string) ([]string, error)
}

// maxStoreKey is the longest key a BatchJobStore takes.
const maxStoreKey = 128

// checkStoreKey reports an invalid BatchJobStore key.
func checkStoreKey(key string) error {
	if validStoreKey(key) {
		return nil
	}
	return invalid("key", "must be 1 to %d characters of [a-z0-9._-], not starting with '.', got %q", maxStoreKey, key)
}

func validStoreKey(key string) bool {
	if key == "" || len(key) > maxStoreKey || key[0] == '.' {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// checkStoreRecord reports a log record Append cannot keep as one line.
func checkStoreRecord(record []byte) error {
	switch {
	case len(record) == 0:
		return invalid("record", "must not be empty")
	case bytes.IndexByte(record, '\n') >= 0:
		return invalid("record", "must not contain '\\n'")
	}
	return nil
}

// errStoreClosed is returned by a closed BatchJobDir.
var errStoreClosed = fmt.Errorf("mms: batch job store is closed: %w", fs.ErrClosed)

// storeKindError reports a write to a key that names the other kind of
// entry.
func storeKindError(op, key, kind string) error {
	return fmt.Errorf("mms: batch job store: %s %q: the key names a %s: %w", op, key, kind, fs.ErrExist)
}

// storeError wraps err from op on key.
func storeError(op, key string, err error) error {
	return fmt.Errorf("mms: batch job store: %s %q: %w", op, key, err)
}

// BatchJobMemoryStore is a [BatchJobStore] in memory, for tests and for jobs
// that need no resume. Its zero value is not usable; call
// [NewBatchJobMemoryStore].
type BatchJobMemoryStore struct {
	mu     sync.Mutex
	values map[string][]byte
	logs   map[string][][]byte
}

// NewBatchJobMemoryStore returns an empty memory store.
func NewBatchJobMemoryStore() *BatchJobMemoryStore {
	return &BatchJobMemoryStore{values: map[string][]byte{}, logs: map[string][][]byte{}}
}

// Get implements [BatchJobStore].
func (s *BatchJobMemoryStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := checkStoreKey(key); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.values[key]
	if !ok {
		return nil, storeError("get", key, fs.ErrNotExist)
	}
	return bytes.Clone(v), nil
}

// Put implements [BatchJobStore].
func (s *BatchJobMemoryStore) Put(ctx context.Context, key string, value []byte) error {
	if err := checkStoreKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	v := append(make([]byte, 0, len(value)), value...) // never nil: a Put value reads back as []byte{}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.logs[key]; ok {
		return storeKindError("put", key, "log")
	}
	s.values[key] = v
	return nil
}

// Append implements [BatchJobStore].
func (s *BatchJobMemoryStore) Append(ctx context.Context, key string, record []byte) error {
	if err := checkStoreKey(key); err != nil {
		return err
	}
	if err := checkStoreRecord(record); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r := bytes.Clone(record)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.values[key]; ok {
		return storeKindError("append", key, "value")
	}
	s.logs[key] = append(s.logs[key], r)
	return nil
}

// Records implements [BatchJobStore]. It yields the records appended before
// ranging started.
func (s *BatchJobMemoryStore) Records(ctx context.Context, key string) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		if err := checkStoreKey(key); err != nil {
			yield(nil, err)
			return
		}
		s.mu.Lock()
		recs := s.logs[key] // appends never change the records already in it
		s.mu.Unlock()
		for _, r := range recs {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			if !yield(bytes.Clone(r), nil) {
				return
			}
		}
	}
}

// Keys implements [BatchJobStore].
func (s *BatchJobMemoryStore) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []string
	for k := range s.values {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	for k := range s.logs {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// File name suffixes of a BatchJobDir. Keys may contain '.', so both kinds
// carry a suffix: no key's value file can then be another key's log file.
const (
	dirValueSuffix = ".val"
	dirLogSuffix   = ".log"
	dirTempMark    = ".tmp-"
)

// dirSyncEvery is the number of records a log may hold unsynced.
const dirSyncEvery = 1000

// BatchJobDir is a [BatchJobStore] in a directory of the local file system.
// Open one with [OpenBatchJobDir] and Close it when the job is done.
//
// # Directory format
//
// The directory holds one file per key, readable with ordinary tools:
//
//   - <key>.val holds a value, its bytes exactly. Put writes the new value
//     to a temporary file <key>.val.tmp-<random> in the same directory,
//     fsyncs it, renames it over <key>.val and fsyncs the directory, so the
//     file always holds the old value or the new one.
//   - <key>.log holds a log, one record per line, each ended by "\n".
//     Append adds a record with one write(2) to the file opened with
//     O_APPEND, so a record is in the file once Append returns and a crash
//     of the process loses nothing.
//   - lock is the lock file of [BatchJobDir.LockJob]; while a job runs it
//     is locked and names the job's owner.
//   - Temporary files left by a crash during Put are ignored by Keys and
//     removed by [OpenBatchJobDir]; other files in the directory are
//     ignored.
//
// Both kinds carry a suffix because keys may contain '.': the value of key
// "a.log" (a.log.val) cannot be mistaken for the log of key "a" (a.log.log
// is the log of "a.log", a.log the log of "a").
//
// The files are created with mode 0o600 and the directory with 0o700.
//
// Logs are fsynced when a Put starts (so a value never outlives on disk the
// records appended before it), after every 1,000 records of a log, by
// [BatchJobDir.Sync] and by [BatchJobDir.Close]. A power loss or operating
// system crash can therefore cost the records appended since the last
// fsync, at most 1,000 per log; a batch job then delivers those results
// again, it never loses them. Values are never lost once Put returns.
//
// A power loss can also leave a log's last line without its "\n". Records
// leaves such a torn tail out, and the log is cut back to its last complete
// line when it is next opened for appending, so a new record never joins a
// torn one.
type BatchJobDir struct {
	path string

	mu     sync.Mutex // guards logs and closed; held while a key's kind is decided
	logs   map[string]*dirLog
	closed bool
}

// dirLog is a log open for appending.
type dirLog struct {
	mu       sync.Mutex
	f        *os.File // nil once closed
	size     int64    // the file's size: a failed write is cut back to it
	unsynced int      // records written since the last fsync
	err      error    // a failed write that could not be undone: the log is unusable
}

// OpenBatchJobDir opens the store in the directory at path, creating it
// (mode 0o700, with its parents) if missing, and removes the temporary
// files a crash left behind.
func OpenBatchJobDir(path string) (*BatchJobDir, error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, fmt.Errorf("mms: open batch job store: %w", err)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("mms: open batch job store: %w", err)
	}
	for _, e := range entries {
		if isDirTemp(e.Name()) && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(path, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("mms: open batch job store: %w", err)
			}
		}
	}
	return &BatchJobDir{path: path, logs: map[string]*dirLog{}}, nil
}

// dirKey returns the key and kind suffix a file name stands for.
func dirKey(name string) (key, suffix string, ok bool) {
	for _, suffix := range []string{dirValueSuffix, dirLogSuffix} {
		if k, found := strings.CutSuffix(name, suffix); found && validStoreKey(k) {
			return k, suffix, true
		}
	}
	return "", "", false
}

// isDirTemp reports whether name is a temporary file of Put: it carries the
// mark and is no key's file (a key such as "a.tmp-1" is a valid key).
func isDirTemp(name string) bool {
	_, _, isKey := dirKey(name)
	return !isKey && strings.Contains(name, dirTempMark)
}

// Path returns the directory the store keeps its files in.
func (d *BatchJobDir) Path() string { return d.path }

func (d *BatchJobDir) file(key, suffix string) string {
	return filepath.Join(d.path, key+suffix)
}

// Get implements [BatchJobStore].
func (d *BatchJobDir) Get(ctx context.Context, key string) ([]byte, error) {
	if err := d.check(ctx, key); err != nil {
		return nil, err
	}
	v, err := os.ReadFile(d.file(key, dirValueSuffix))
	if err != nil {
		return nil, storeError("get", key, err)
	}
	return v, nil
}

// check validates key and reports a done ctx or a closed store.
func (d *BatchJobDir) check(ctx context.Context, key string) error {
	if err := checkStoreKey(key); err != nil {
		return err
	}
	return d.live(ctx)
}

// live reports a done ctx or a closed store.
func (d *BatchJobDir) live(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errStoreClosed
	}
	return nil
}

// Put implements [BatchJobStore].
func (d *BatchJobDir) Put(ctx context.Context, key string, value []byte) error {
	if err := d.check(ctx, key); err != nil {
		return err
	}
	if err := d.Sync(ctx); err != nil {
		return err
	}
	tmp, err := d.writeTemp(key, value)
	if err != nil {
		return storeError("put", key, err)
	}
	if err := d.rename(key, tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := syncDir(d.path); err != nil {
		return storeError("put", key, err)
	}
	return nil
}

// writeTemp writes value to a new fsynced temporary file and returns its
// path.
func (d *BatchJobDir) writeTemp(key string, value []byte) (string, error) {
	f, err := os.CreateTemp(d.path, key+dirValueSuffix+dirTempMark+"*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(value)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// rename moves the temporary file tmp over key's value unless key names a
// log; d.mu orders it with the creation of logs.
func (d *BatchJobDir) rename(key, tmp string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errStoreClosed
	}
	if d.logs[key] != nil {
		return storeKindError("put", key, "log")
	}
	switch _, err := os.Lstat(d.file(key, dirLogSuffix)); {
	case err == nil:
		return storeKindError("put", key, "log")
	case !errors.Is(err, fs.ErrNotExist):
		return storeError("put", key, err)
	}
	if err := os.Rename(tmp, d.file(key, dirValueSuffix)); err != nil {
		return storeError("put", key, err)
	}
	return nil
}

// syncDir fsyncs the directory at path so that renames and new files in it
// survive a power loss. Windows cannot fsync a directory and needs no such
// step.
func syncDir(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Append implements [BatchJobStore]. It writes the record with one write(2)
// and fsyncs the log after every 1,000 records.
func (d *BatchJobDir) Append(ctx context.Context, key string, record []byte) error {
	if err := checkStoreRecord(record); err != nil {
		return err
	}
	if err := d.check(ctx, key); err != nil {
		return err
	}
	l, err := d.openLog(key)
	if err != nil {
		return err
	}
	line := make([]byte, len(record)+1)
	copy(line, record)
	line[len(record)] = '\n'

	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.err != nil:
		return storeError("append", key, l.err)
	case l.f == nil:
		return errStoreClosed
	}
	if n, err := l.f.Write(line); err != nil {
		if n > 0 {
			// Cut the partial record off so the next one does not join it.
			if terr := l.f.Truncate(l.size); terr != nil {
				l.err = fmt.Errorf("cutting off a partial record: %w", terr)
			}
		}
		return storeError("append", key, err)
	}
	l.size += int64(len(line))
	l.unsynced++
	if l.unsynced >= dirSyncEvery {
		if err := l.sync(); err != nil {
			return storeError("append", key, err)
		}
	}
	return nil
}

// openLog returns key's log open for appending, opening it on first use:
// a torn last line is cut off and the directory fsynced, so a new log file
// is as durable as its first fsynced records.
func (d *BatchJobDir) openLog(key string) (*dirLog, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errStoreClosed
	}
	if l := d.logs[key]; l != nil {
		return l, nil
	}
	switch _, err := os.Lstat(d.file(key, dirValueSuffix)); {
	case err == nil:
		return nil, storeKindError("append", key, "value")
	case !errors.Is(err, fs.ErrNotExist):
		return nil, storeError("append", key, err)
	}
	f, err := os.OpenFile(d.file(key, dirLogSuffix), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, storeError("append", key, err)
	}
	size, err := cutTornTail(f)
	if err == nil {
		err = syncDir(d.path)
	}
	if err != nil {
		f.Close()
		return nil, storeError("append", key, err)
	}
	l := &dirLog{f: f, size: size}
	d.logs[key] = l
	return l, nil
}

// cutTornTail truncates f after its last "\n" and returns the new size.
func cutTornTail(f *os.File) (int64, error) {
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	end := info.Size()
	buf := make([]byte, 4096)
	for end > 0 {
		n := int64(len(buf))
		if end < n {
			n = end
		}
		chunk := buf[:n]
		if _, err := f.ReadAt(chunk, end-n); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			end = end - n + int64(i) + 1
			break
		}
		end -= n
	}
	if end != info.Size() {
		if err := f.Truncate(end); err != nil {
			return 0, err
		}
	}
	return end, nil
}

// sync fsyncs the log if records were written since the last fsync. The
// caller holds l.mu.
func (l *dirLog) sync() error {
	if l.f == nil || l.unsynced == 0 {
		return nil
	}
	if err := l.f.Sync(); err != nil {
		return err
	}
	l.unsynced = 0
	return nil
}

// Records implements [BatchJobStore]. Records appended while it ranges may
// or may not be yielded.
func (d *BatchJobDir) Records(ctx context.Context, key string) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		if err := d.check(ctx, key); err != nil {
			yield(nil, err)
			return
		}
		f, err := os.Open(d.file(key, dirLogSuffix))
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err != nil {
			yield(nil, storeError("records", key, err))
			return
		}
		defer f.Close()
		for rec, err := range readLines(ctx, f) {
			if err != nil {
				yield(nil, storeError("records", key, err))
				return
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

// readLines yields the complete lines of r without their "\n", each in its
// own slice, and leaves out a last line without one.
func readLines(ctx context.Context, r io.Reader) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			line, err := br.ReadBytes('\n')
			if err == io.EOF {
				return // line, if any, is a torn tail
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(line[:len(line)-1], nil) {
				return
			}
		}
	}
}

// Keys implements [BatchJobStore].
func (d *BatchJobDir) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := d.live(ctx); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return nil, fmt.Errorf("mms: batch job store: keys: %w", err)
	}
	var keys []string
	for _, e := range entries {
		if k, _, ok := dirKey(e.Name()); ok && strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// Sync fsyncs every log with records appended since its last fsync.
func (d *BatchJobDir) Sync(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	logs := maps.Clone(d.logs)
	d.mu.Unlock()
	var errs []error
	for k, l := range logs {
		l.mu.Lock()
		if err := l.sync(); err != nil {
			errs = append(errs, storeError("sync", k, err))
		}
		l.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Close fsyncs and closes the open logs. Later calls fail with an error
// matching [fs.ErrClosed]; Close itself may be called again.
func (d *BatchJobDir) Close() error {
	d.mu.Lock()
	logs := d.logs
	d.logs = map[string]*dirLog{}
	d.closed = true
	d.mu.Unlock()
	var errs []error
	for k, l := range logs {
		l.mu.Lock()
		if l.f != nil {
			if err := l.sync(); err != nil {
				errs = append(errs, storeError("close", k, err))
			}
			if err := l.f.Close(); err != nil {
				errs = append(errs, storeError("close", k, err))
			}
			l.f = nil
		}
		l.mu.Unlock()
	}
	return errors.Join(errs...)
}
