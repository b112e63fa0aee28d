package mms_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"

	"github.com/stretchr/testify/require"
)

// storeImpls is the contract tests' table: every BatchJobStore
// implementation, freshly opened.
var storeImpls = []struct {
	name string
	open func(t *testing.T) mms.BatchJobStore
}{
	{"dir", func(t *testing.T) mms.BatchJobStore { return openStoreDir(t, t.TempDir()) }},
	{"memory", func(*testing.T) mms.BatchJobStore { return mms.NewBatchJobMemoryStore() }},
}

// openStoreDir opens a BatchJobDir at path and closes it when the test ends.
func openStoreDir(t *testing.T, path string) *mms.BatchJobDir {
	t.Helper()
	d, err := mms.OpenBatchJobDir(path)
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// storeRecords collects a log's records, failing the test on an error.
func storeRecords(t *testing.T, s mms.BatchJobStore, key string) []string {
	t.Helper()
	var out []string
	for r, err := range s.Records(context.Background(), key) {
		if err != nil {
			t.Fatalf("Records(%q): %v", key, err)
		}
		out = append(out, string(r))
	}
	return out
}

func storeAppend(t *testing.T, s mms.BatchJobStore, key string, recs ...string) {
	t.Helper()
	for _, r := range recs {
		if err := s.Append(context.Background(), key, []byte(r)); err != nil {
			t.Fatalf("Append(%q, %q): %v", key, r, err)
		}
	}
}

func storePut(t *testing.T, s mms.BatchJobStore, key, value string) {
	t.Helper()
	if err := s.Put(context.Background(), key, []byte(value)); err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
}

func TestBatchJobStoreValues(t *testing.T) {
	ctx := context.Background()
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			_, err := s.Get(ctx, "job")
			if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), `"job"`) {
				t.Fatalf("Get of a missing key: %v, want fs.ErrNotExist naming the key", err)
			}
			for _, v := range []string{"first", "second, longer", "", "third"} {
				storePut(t, s, "job", v)
				got, err := s.Get(ctx, "job")
				require.NoError(t, err)
				if string(got) != v {
					t.Fatalf("Get after Put(%q) = %q", v, got)
				}
			}
			storeAppend(t, s, "log", "r")
			if _, err := s.Get(ctx, "log"); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("Get of a log's key: %v, want fs.ErrNotExist", err)
			}
		})
	}
}

func TestBatchJobStoreRecords(t *testing.T) {
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			if got := storeRecords(t, s, "results"); got != nil {
				t.Fatalf("Records of a missing log = %q", got)
			}
			want := []string{"b-1", "a-2", "c-3", "a-2", `{"x":1}`}
			storeAppend(t, s, "results", want...)
			storeAppend(t, s, "other", "o")
			if diff := cmp.Diff(want, storeRecords(t, s, "results")); diff != "" {
				t.Fatalf("Records (-want +got):\n%s", diff)
			}
			// A consumer that stops early.
			for r, err := range s.Records(context.Background(), "results") {
				if err != nil || string(r) != "b-1" {
					t.Fatalf("first record %q, %v", r, err)
				}
				break
			}
		})
	}
}

func TestBatchJobStoreKeys(t *testing.T) {
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			storePut(t, s, "job", "j")
			storePut(t, s, "batch-2", "b")
			storePut(t, s, "batch-10", "b")
			storeAppend(t, s, "batch-1.results", "r")
			storePut(t, s, "batch.tmp-1", "a key that looks like a temporary file")
			storeAppend(t, s, "a", "r")
			for _, tc := range []struct {
				prefix string
				want   []string
			}{
				{"", []string{"a", "batch-1.results", "batch-10", "batch-2", "batch.tmp-1", "job"}},
				{"batch-", []string{"batch-1.results", "batch-10", "batch-2"}},
				{"batch-1", []string{"batch-1.results", "batch-10"}},
				{"job", []string{"job"}},
				{"jobs", nil},
				{"z", nil},
			} {
				got, err := s.Keys(context.Background(), tc.prefix)
				require.NoError(t, err)
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("Keys(%q) (-want +got):\n%s", tc.prefix, diff)
				}
			}
		})
	}
}

// TestBatchJobStoreKeyRule checks each part of the key rule on both sides
// with every method that takes a key.
func TestBatchJobStoreKeyRule(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		key   string
		valid bool
	}{
		{"a", true},
		{"", false},
		{strings.Repeat("k", 128), true},
		{strings.Repeat("k", 129), false},
		{"batch-1_results.v2", true},
		{"a.", true},
		{".a", false},
		{".", false},
		{"..", false},
		{"-a", true},
		{"_a", true},
		{"0", true},
		{"Job", false},
		{"a/b", false},
		{"../a", false},
		{`a\b`, false},
		{"a b", false},
		{"a\n", false},
		{"é", false},
	}
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			for _, tc := range cases {
				ops := map[string]error{
					"Put":    impl.open(t).Put(ctx, tc.key, []byte("v")),
					"Append": impl.open(t).Append(ctx, tc.key, []byte("r")),
				}
				s := impl.open(t)
				_, ops["Get"] = s.Get(ctx, tc.key)
				for _, err := range s.Records(ctx, tc.key) {
					ops["Records"] = err
				}
				for op, err := range ops {
					var verr *mms.ValidationError
					if isInvalid := errors.As(err, &verr) && verr.Field == "key"; isInvalid == tc.valid {
						t.Errorf("%s(%q) = %v, want valid %v", op, tc.key, err, tc.valid)
					}
					if tc.valid && err != nil && !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("%s(%q): %v", op, tc.key, err)
					}
				}
			}
		})
	}
}

// TestBatchJobStoreRecordRule checks the record rule on both sides.
func TestBatchJobStoreRecordRule(t *testing.T) {
	cases := []struct {
		record string
		valid  bool
	}{
		{"x", true},
		{"", false},
		{"a b\tc\r", true},
		{"\n", false},
		{"a\nb", false},
		{"ab\n", false},
		{strings.Repeat("r", 1<<20), true},
	}
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			var want []string
			for _, tc := range cases {
				err := s.Append(context.Background(), "log", []byte(tc.record))
				var verr *mms.ValidationError
				if got := !errors.As(err, &verr); got != tc.valid || !tc.valid && verr.Field != "record" {
					t.Errorf("Append(%.20q) = %v, want valid %v", tc.record, err, tc.valid)
				}
				if tc.valid {
					want = append(want, tc.record)
				}
			}
			if diff := cmp.Diff(want, storeRecords(t, s, "log")); diff != "" {
				t.Errorf("Records: only the valid records are kept (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBatchJobStoreKinds: a key names a value or a log, never both.
func TestBatchJobStoreKinds(t *testing.T) {
	ctx := context.Background()
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			storePut(t, s, "value", "v")
			storeAppend(t, s, "log", "r")
			if err := s.Append(ctx, "value", []byte("r")); !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), `"value"`) {
				t.Errorf("Append to a value's key: %v, want fs.ErrExist naming the key", err)
			}
			if err := s.Put(ctx, "log", []byte("v")); !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), `"log"`) {
				t.Errorf("Put to a log's key: %v, want fs.ErrExist naming the key", err)
			}
			// The refused calls changed nothing.
			if got := storeRecords(t, s, "log"); !cmp.Equal(got, []string{"r"}) {
				t.Errorf("log = %q", got)
			}
			if got := storeRecords(t, s, "value"); got != nil {
				t.Errorf("value's key has records %q", got)
			}
			if v, err := s.Get(ctx, "value"); err != nil || string(v) != "v" {
				t.Errorf("value = %q, %v", v, err)
			}
			keys, err := s.Keys(ctx, "")
			if err != nil || !cmp.Equal(keys, []string{"log", "value"}) {
				t.Errorf("Keys = %q, %v", keys, err)
			}
		})
	}
}

// TestBatchJobStoreConcurrent runs Puts and Appends from many goroutines
// (for the race detector) and checks that nothing is lost or reordered.
func TestBatchJobStoreConcurrent(t *testing.T) {
	const workers, perWorker = 8, 50
	ctx := context.Background()
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			var wg sync.WaitGroup
			errs := make(chan error, workers)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range perWorker {
						rec := fmt.Sprintf("w%d-%d", w, i)
						if err := s.Append(ctx, "shared", []byte(rec)); err != nil {
							errs <- err
							return
						}
						if err := s.Append(ctx, fmt.Sprintf("log-%d", w), []byte(rec)); err != nil {
							errs <- err
							return
						}
						if i%10 == 0 {
							if err := s.Put(ctx, "state", []byte(rec)); err != nil {
								errs <- err
								return
							}
							if err := s.Put(ctx, fmt.Sprintf("state-%d", w), []byte(rec)); err != nil {
								errs <- err
								return
							}
						}
						if _, err := s.Keys(ctx, "state"); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			next := make([]int, workers)
			shared := storeRecords(t, s, "shared")
			for _, r := range shared {
				var w, i int
				if _, err := fmt.Sscanf(r, "w%d-%d", &w, &i); err != nil || i != next[w] {
					t.Fatalf("record %q out of order or garbled (%v)", r, err)
				}
				next[w]++
			}
			if len(shared) != workers*perWorker {
				t.Fatalf("%d shared records, want %d", len(shared), workers*perWorker)
			}
			for w := range workers {
				if got := storeRecords(t, s, fmt.Sprintf("log-%d", w)); len(got) != perWorker {
					t.Errorf("log-%d has %d records", w, len(got))
				}
				v, err := s.Get(ctx, fmt.Sprintf("state-%d", w))
				if want := fmt.Sprintf("w%d-%d", w, (perWorker-1)/10*10); err != nil || string(v) != want {
					t.Errorf("state-%d = %q, %v, want %q", w, v, err, want)
				}
			}
		})
	}
}

// TestBatchJobStorePutAtomic: while one goroutine replaces a big value,
// every Get sees a whole old or new value, never a partial file.
func TestBatchJobStorePutAtomic(t *testing.T) {
	const size = 1 << 20
	ctx := context.Background()
	values := [][]byte{bytes.Repeat([]byte{'a'}, size), bytes.Repeat([]byte{'b'}, size/2+1)}
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			if err := s.Put(ctx, "big", values[0]); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				for i := range 10 {
					if err := s.Put(ctx, "big", values[(i+1)%2]); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
			var reads int
			for writing := true; writing || reads < 20; reads++ {
				select {
				case err := <-done:
					require.NoError(t, err)
					writing = false
				default:
				}
				got, err := s.Get(ctx, "big")
				require.NoError(t, err)
				if !bytes.Equal(got, values[0]) && !bytes.Equal(got, values[1]) {
					t.Fatalf("Get saw a value of %d bytes that is neither the old nor the new one", len(got))
				}
			}
		})
	}
}

// TestBatchJobStoreCanceled: a done context stops every method.
func TestBatchJobStoreCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, impl := range storeImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := impl.open(t)
			storeAppend(t, s, "log", "r")
			_, getErr := s.Get(ctx, "k")
			_, keysErr := s.Keys(ctx, "")
			var recErr error
			for _, err := range s.Records(ctx, "log") {
				recErr = err
			}
			for name, err := range map[string]error{
				"Get": getErr, "Put": s.Put(ctx, "k", nil), "Append": s.Append(ctx, "log", []byte("r")),
				"Records": recErr, "Keys": keysErr,
			} {
				if !errors.Is(err, context.Canceled) {
					t.Errorf("%s: %v, want context.Canceled", name, err)
				}
			}
			if got := storeRecords(t, s, "log"); len(got) != 1 {
				t.Errorf("log = %q", got)
			}
		})
	}
}

// TestBatchJobDirReopen: a store reopened after Close sees every value and
// record, and keeps refusing a key of the other kind.
func TestBatchJobDirReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nested", "job")
	d, err := mms.OpenBatchJobDir(path)
	require.NoError(t, err)
	if d.Path() != path {
		t.Errorf("Path() = %q, want %q", d.Path(), path)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("directory: %v, %v; want mode 0700", info, err)
	}
	storePut(t, d, "job", "state")
	storeAppend(t, d, "results", "1", "2")
	if err := d.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	storeAppend(t, d, "results", "3")
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := d.Append(ctx, "results", []byte("4")); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Append after Close: %v, want fs.ErrClosed", err)
	}
	if err := d.Put(ctx, "job", nil); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Put after Close: %v, want fs.ErrClosed", err)
	}

	d = openStoreDir(t, path)
	if v, err := d.Get(ctx, "job"); err != nil || string(v) != "state" {
		t.Errorf("job = %q, %v", v, err)
	}
	storeAppend(t, d, "results", "4")
	if diff := cmp.Diff([]string{"1", "2", "3", "4"}, storeRecords(t, d, "results")); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if err := d.Put(ctx, "results", nil); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Put to a log's key after reopening: %v", err)
	}
	if err := d.Append(ctx, "job", []byte("r")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Append to a value's key after reopening: %v", err)
	}
	for _, name := range []string{"job.val", "results.log"} {
		if info, err := os.Stat(filepath.Join(path, name)); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want mode 0600", name, info, err)
		}
	}
}

// TestBatchJobDirTornTail: a log whose last line lost its "\n" in a crash
// yields only its complete lines, and a later Append starts a new line.
func TestBatchJobDirTornTail(t *testing.T) {
	cases := []struct {
		file        string
		want        []string
		afterAppend string
	}{
		{"", nil, "new\n"},
		{"one\n", []string{"one"}, "one\nnew\n"},
		{"one\ntwo\nthr", []string{"one", "two"}, "one\ntwo\nnew\n"},
		{"torn", nil, "new\n"},
		{"one\n" + strings.Repeat("x", 10000), []string{"one"}, "one\nnew\n"},
		{strings.Repeat("y", 5000) + "\n" + "z", []string{strings.Repeat("y", 5000)}, strings.Repeat("y", 5000) + "\nnew\n"},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "results.log")
			if err := os.WriteFile(file, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			d := openStoreDir(t, dir)
			if diff := cmp.Diff(tc.want, storeRecords(t, d, "results")); diff != "" {
				t.Errorf("before Append (-want +got):\n%s", diff)
			}
			storeAppend(t, d, "results", "new")
			if diff := cmp.Diff(append(tc.want, "new"), storeRecords(t, d, "results")); diff != "" {
				t.Errorf("after Append (-want +got):\n%s", diff)
			}
			got, err := os.ReadFile(file)
			require.NoError(t, err)
			if string(got) != tc.afterAppend {
				t.Errorf("file = %.40q, want %.40q", got, tc.afterAppend)
			}
		})
	}
}

// TestBatchJobDirTempFiles: Open removes the temporary files of a crashed
// Put and nothing else; Keys ignores them.
func TestBatchJobDirTempFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{ // name: kept by Open
		"job.val.tmp-123456":   false,
		"a.tmp-1.val.tmp-9":    false,
		"a.tmp-1.val":          true, // the value of key "a.tmp-1"
		"notes.txt":            true,
		"results.log":          true,
		"Upper.val":            true, // not a key: ignored, kept
		"batch-2.log.tmp-junk": false,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d := openStoreDir(t, dir)
	for name, kept := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v (%v)", name, err == nil, kept, err)
		}
	}
	// A temporary file of a Put still under way in another goroutine.
	if err := os.WriteFile(filepath.Join(dir, "job.val.tmp-77"), []byte("partial"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := d.Keys(context.Background(), "")
	require.NoError(t, err)
	if diff := cmp.Diff([]string{"a.tmp-1", "results"}, keys); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	if _, err := d.Get(context.Background(), "job"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get of a key with only a temporary file: %v", err)
	}
	// Put leaves no temporary file behind.
	storePut(t, d, "state", "v")
	matches, _ := filepath.Glob(filepath.Join(dir, "state*"))
	if diff := cmp.Diff([]string{filepath.Join(dir, "state.val")}, matches); diff != "" {
		t.Errorf("files after Put (-want +got):\n%s", diff)
	}
}

// FuzzBatchJobDirRecords checks Records over arbitrary log bytes: the
// records are the file's complete lines, none holds a '\n', and an Append
// after them starts a new line.
func FuzzBatchJobDirRecords(f *testing.F) {
	for _, s := range []string{"", "a\n", "a\nb", "\n\n", "a\r\nb\n", "x\x00y\nz", strings.Repeat("q", 70000) + "\nr"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "log.log"), file, 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := mms.OpenBatchJobDir(dir)
		require.NoError(t, err)
		defer d.Close()
		lines := strings.Split(string(file), "\n")
		want := lines[:len(lines)-1] // the last part is "" or a torn tail
		got := storeRecords(t, d, "log")
		for _, r := range got {
			if strings.Contains(r, "\n") {
				t.Fatalf("record %q holds a newline", r)
			}
		}
		if len(want) == 0 {
			want = nil
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Records (-want +got):\n%s", diff)
		}
		storeAppend(t, d, "log", "end")
		if diff := cmp.Diff(append(want, "end"), storeRecords(t, d, "log")); diff != "" {
			t.Fatalf("Records after Append (-want +got):\n%s", diff)
		}
	})
}
