package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	mms "github.com/mms-sdk/mms-go"
)

// Defaults of [Options].
const (
	DefaultLeaseTTL = 30 * time.Second
	DefaultRetryFor = time.Minute
)

// Options configure a [Store]. The zero value is the defaults.
type Options struct {
	// Owner names this process in the job's lease, and in the
	// *mms.BatchJobOwnedError another process gets. Default:
	// mms.BatchJobOwner() (host name and process id).
	Owner string
	// LeaseTTL is how long a lease lasts unless renewed (default
	// DefaultLeaseTTL, at least 100ms). The owner renews it every quarter
	// of it, and stops acting (see mms.BatchJobLease.Check) once less than
	// a quarter of it is sure to be left: a process that dies, or is cut
	// off or paused, loses the job LeaseTTL after its last renewal at most.
	LeaseTTL time.Duration
	// RetryFor is how long a call goes on retrying a lost connection or a
	// server that is restarting (default DefaultRetryFor). An owner's
	// writes stop retrying sooner when its lease runs out.
	RetryFor time.Duration
}

// Store is an mms.BatchJobStore that keeps one batch job's state in
// PostgreSQL, and an mms.BatchJobLocker: one process at a time owns the
// job, through a lease in the database. Open one with [Open]. It is safe
// for concurrent use.
//
// Writes through the Store itself carry no fencing token (mms.BatchJob
// makes one, to record a cancel from any process); a running job writes
// through its lease's store, whose writes are fenced.
type Store struct {
	pool *pgxpool.Pool
	job  string
	opts Options
	w    *writer // unfenced
}

// maxJobName is the longest job name Open takes, in bytes.
const maxJobName = 200

// Open returns the store of the job named job (1 to 200 bytes of UTF-8,
// no NUL) in the database pool connects to, creating or migrating the
// tables first ([Migrate]). Jobs of any number live side by side in the
// same tables. The pool stays the caller's: Open does not close it.
func Open(ctx context.Context, pool *pgxpool.Pool, job string, opts *Options) (*Store, error) {
	if job == "" || len(job) > maxJobName || !utf8.ValidString(job) || bytes.IndexByte([]byte(job), 0) >= 0 {
		return nil, &mms.ValidationError{Field: "job", Rule: fmt.Sprintf("must be 1 to %d bytes of UTF-8 without NUL, got %q", maxJobName, job)}
	}
	s := &Store{pool: pool, job: job}
	if opts != nil {
		s.opts = *opts
	}
	switch {
	case s.opts.LeaseTTL == 0:
		s.opts.LeaseTTL = DefaultLeaseTTL
	case s.opts.LeaseTTL < 100*time.Millisecond:
		return nil, &mms.ValidationError{Field: "lease_ttl", Rule: fmt.Sprintf("must be at least 100ms, got %v", s.opts.LeaseTTL)}
	}
	if s.opts.RetryFor <= 0 {
		s.opts.RetryFor = DefaultRetryFor
	}
	if s.opts.Owner == "" {
		s.opts.Owner = mms.BatchJobOwner()
	}
	if err := Migrate(ctx, pool); err != nil {
		return nil, err
	}
	s.w = &writer{s: s, seqs: map[string]int64{}, kinds: map[string]byte{}}
	return s, nil
}

// Job returns the job's name.
func (s *Store) Job() string { return s.job }

// Get implements mms.BatchJobStore.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) { return s.w.Get(ctx, key) }

// Put implements mms.BatchJobStore: the value is replaced in one
// statement, so a reader sees the old value or the new one.
func (s *Store) Put(ctx context.Context, key string, value []byte) error {
	return s.w.Put(ctx, key, value)
}

// Append implements mms.BatchJobStore: the record is committed when Append
// returns. A record is one row, so none is ever seen cut short. The commit
// does not wait for the server's disk: a crash of the process loses no
// record, a crash of the database server can lose those of its last
// fraction of a second (a job delivers those results again, never loses
// them); values (Put) are flushed, with every record appended before them.
func (s *Store) Append(ctx context.Context, key string, record []byte) error {
	return s.w.Append(ctx, key, record)
}

// Records implements mms.BatchJobStore. It reads the log in pages of
// 10,000 records, so memory stays flat however long the log is.
func (s *Store) Records(ctx context.Context, key string) iter.Seq2[[]byte, error] {
	return s.w.Records(ctx, key)
}

// Keys implements mms.BatchJobStore.
func (s *Store) Keys(ctx context.Context, prefix string) ([]string, error) {
	return s.w.Keys(ctx, prefix)
}

// writer does the store's statements: unfenced (lease nil) for the Store,
// fenced with a lease's token for the lease's store.
type writer struct {
	s     *Store
	lease *lease // nil: unfenced

	mu    sync.Mutex       // orders Appends: each takes the next seq of its log
	seqs  map[string]int64 // a log's last seq, as this writer knows it
	kinds map[string]byte  // keys whose kind is known: 'v' or 'l'
	kmu   sync.Mutex       // guards kinds
}

func (w *writer) token() int64 {
	if w.lease == nil {
		return 0
	}
	return w.lease.token
}

// The first CTE of a write: one row when the write may go ahead. A fenced
// write takes a share lock on the job's row: a new owner's takeover (an
// update of that row) waits until the write commits, so no write of an
// old owner lands after the new owner has started.
const (
	unfencedCTE = `l AS (SELECT $2::bigint AS t)`
	fencedCTE   = `l AS (SELECT token AS t FROM mms_batch_jobs WHERE job = $1 AND token = $2 AND lease_until > now() FOR SHARE)`
	keyCTE      = `k AS (INSERT INTO mms_batch_keys (job, key, kind) SELECT $1, $3, '%c' FROM l
		ON CONFLICT (job, key) DO UPDATE SET kind = mms_batch_keys.kind RETURNING kind)`
)

// asyncCTE commits an Append without waiting for the server's WAL flush
// (synchronous_commit off, for its transaction only): the record is on
// the server when Append returns, so a crash of the job's process loses
// nothing; a crash of the server itself can lose the records of its last
// moments (three wal_writer_delay, 600 ms by default), which a job then
// delivers again, as BatchJobDir after a power loss. A Put commits
// synchronously, and so flushes every record appended before it.
const asyncCTE = `a AS (SELECT set_config('synchronous_commit', 'off', true))`

func (w *writer) cte() string {
	if w.lease == nil {
		return unfencedCTE
	}
	return fencedCTE
}

func (w *writer) knownKind(key string) byte {
	w.kmu.Lock()
	defer w.kmu.Unlock()
	return w.kinds[key]
}

func (w *writer) setKind(key string, kind byte) {
	w.kmu.Lock()
	defer w.kmu.Unlock()
	w.kinds[key] = kind
}

// Get implements mms.BatchJobStore.
func (w *writer) Get(ctx context.Context, key string) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	var v []byte
	err := w.retry(ctx, func(ctx context.Context) error {
		return w.s.pool.QueryRow(ctx, `SELECT value FROM mms_batch_values WHERE job = $1 AND key = $2`, w.s.job, key).Scan(&v)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, storeError("get", key, fs.ErrNotExist)
	}
	if err != nil {
		return nil, storeError("get", key, err)
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

// Put implements mms.BatchJobStore.
func (w *writer) Put(ctx context.Context, key string, value []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if value == nil {
		value = []byte{} // bytea NOT NULL: nil would be NULL
	}
	known := w.knownKind(key) == 'v'
	sql := `WITH ` + w.cte() + `, ` + fmt.Sprintf(keyCTE, 'v') + `
		INSERT INTO mms_batch_values (job, key, value) SELECT $1, $3, $4 FROM k WHERE kind = 'v'
		ON CONFLICT (job, key) DO UPDATE SET value = excluded.value`
	if known {
		sql = `WITH ` + w.cte() + `
			INSERT INTO mms_batch_values (job, key, value) SELECT $1, $3, $4 FROM l
			ON CONFLICT (job, key) DO UPDATE SET value = excluded.value`
	}
	var n int64
	err := w.retry(ctx, func(ctx context.Context) error {
		tag, err := w.s.pool.Exec(ctx, sql, w.s.job, w.token(), key, value)
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return storeError("put", key, err)
	}
	if n == 1 {
		w.setKind(key, 'v')
		return nil
	}
	if err := w.refused(ctx, "put", key, 'v'); err != nil {
		return err
	}
	return storeError("put", key, errors.New("the database changed no row"))
}

// refused says why a write changed nothing: the key names the other kind
// of entry, or the lease is lost.
func (w *writer) refused(ctx context.Context, op, key string, kind byte) error {
	var got *string
	var leaseOK bool
	err := w.retry(ctx, func(ctx context.Context) error {
		return w.s.pool.QueryRow(ctx, `SELECT (SELECT kind::text FROM mms_batch_keys WHERE job = $1 AND key = $2),
			EXISTS (SELECT 1 FROM mms_batch_jobs WHERE job = $1 AND token = $3 AND lease_until > now())`,
			w.s.job, key, w.token()).Scan(&got, &leaseOK)
	})
	switch {
	case err != nil:
		return storeError(op, key, err)
	case got != nil && (*got)[0] != kind:
		name := map[byte]string{'v': "value", 'l': "log"}[(*got)[0]]
		return fmt.Errorf("batchstore/postgres: %s %q: the key names a %s: %w", op, key, name, fs.ErrExist)
	case w.lease != nil && !leaseOK:
		w.lease.markLost()
		return w.lease.lostError(op, key)
	}
	return nil
}

// Append implements mms.BatchJobStore. Each record takes the next number
// of its log; a retry after a commit whose answer was lost finds its own
// record under that number and adds nothing.
func (w *writer) Append(ctx context.Context, key string, record []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := checkRecord(record); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for range 16 {
		seq, ok := w.seqs[key]
		if !ok {
			err := w.retry(ctx, func(ctx context.Context) error {
				return w.s.pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM mms_batch_records WHERE job = $1 AND key = $2`,
					w.s.job, key).Scan(&seq)
			})
			if err != nil {
				return storeError("append", key, err)
			}
		}
		seq++
		sql := `WITH ` + w.cte() + `, ` + fmt.Sprintf(keyCTE, 'l') + `, ` + asyncCTE + `
			INSERT INTO mms_batch_records (job, key, seq, record) SELECT $1, $3, $4, $5 FROM k, a WHERE kind = 'l'
			ON CONFLICT (job, key, seq) DO NOTHING`
		if w.knownKind(key) == 'l' {
			sql = `WITH ` + w.cte() + `, ` + asyncCTE + `
				INSERT INTO mms_batch_records (job, key, seq, record) SELECT $1, $3, $4, $5 FROM l, a
				ON CONFLICT (job, key, seq) DO NOTHING`
		}
		var n int64
		uncertain := false // an attempt failed after it may have committed
		err := w.retry(ctx, func(ctx context.Context) error {
			if uncertain {
				var mine bool
				err := w.s.pool.QueryRow(ctx, `SELECT record = $4 FROM mms_batch_records WHERE job = $1 AND key = $2 AND seq = $3`,
					w.s.job, key, seq, record).Scan(&mine)
				if err == nil && mine {
					n = 1
					return nil
				}
				if err != nil && !errors.Is(err, pgx.ErrNoRows) {
					return err
				}
			}
			tag, err := w.s.pool.Exec(ctx, sql, w.s.job, w.token(), key, seq, record)
			if err != nil {
				uncertain = true
			}
			n = tag.RowsAffected()
			return err
		})
		if err != nil {
			return storeError("append", key, err)
		}
		if n == 1 {
			w.seqs[key] = seq
			w.setKind(key, 'l')
			return nil
		}
		if err := w.refused(ctx, "append", key, 'l'); err != nil {
			return err
		}
		delete(w.seqs, key) // another writer took the number: read the end again
	}
	return storeError("append", key, errors.New("the log's end kept moving: another process is appending to it"))
}

// recordsPage is how many records Records reads at a time.
const recordsPage = 10_000

// Records implements mms.BatchJobStore.
func (w *writer) Records(ctx context.Context, key string) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		if err := checkKey(key); err != nil {
			yield(nil, err)
			return
		}
		var last int64
		for {
			var page [][]byte
			var seqs []int64
			err := w.retry(ctx, func(ctx context.Context) error {
				page, seqs = page[:0], seqs[:0]
				rows, err := w.s.pool.Query(ctx, `SELECT seq, record FROM mms_batch_records
					WHERE job = $1 AND key = $2 AND seq > $3 ORDER BY seq LIMIT $4`, w.s.job, key, last, recordsPage)
				if err != nil {
					return err
				}
				defer rows.Close()
				for rows.Next() {
					var seq int64
					var rec []byte
					if err := rows.Scan(&seq, &rec); err != nil {
						return err
					}
					page, seqs = append(page, rec), append(seqs, seq)
				}
				return rows.Err()
			})
			if err != nil {
				yield(nil, storeError("records", key, err))
				return
			}
			for _, rec := range page {
				if !yield(rec, nil) {
					return
				}
			}
			if len(page) < recordsPage {
				return
			}
			last = seqs[len(seqs)-1]
		}
	}
}

// Keys implements mms.BatchJobStore.
func (w *writer) Keys(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	err := w.retry(ctx, func(ctx context.Context) error {
		keys = keys[:0]
		rows, err := w.s.pool.Query(ctx, `SELECT key FROM mms_batch_keys WHERE job = $1 AND starts_with(key, $2) ORDER BY key`, w.s.job, prefix)
		if err != nil {
			return err
		}
		keys, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("batchstore/postgres: keys: %w", err)
	}
	return keys, nil
}

// maxKey is the longest key, as mms.BatchJobStore says.
const maxKey = 128

// checkKey applies mms.BatchJobStore's rule for keys.
func checkKey(key string) error {
	ok := key != "" && len(key) <= maxKey && key[0] != '.'
	for i := 0; ok && i < len(key); i++ {
		c := key[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
	}
	if ok {
		return nil
	}
	return &mms.ValidationError{Field: "key", Rule: fmt.Sprintf("must be 1 to %d characters of [a-z0-9._-], not starting with '.', got %q", maxKey, key)}
}

// checkRecord applies mms.BatchJobStore's rule for records.
func checkRecord(record []byte) error {
	switch {
	case len(record) == 0:
		return &mms.ValidationError{Field: "record", Rule: "must not be empty"}
	case bytes.IndexByte(record, '\n') >= 0:
		return &mms.ValidationError{Field: "record", Rule: "must not contain '\\n'"}
	}
	return nil
}

func storeError(op, key string, err error) error {
	return fmt.Errorf("batchstore/postgres: %s %q: %w", op, key, err)
}
