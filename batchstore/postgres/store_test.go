package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/batchstore/postgres"
)

func records(t *testing.T, s mms.BatchJobStore, key string) []string {
	t.Helper()
	var out []string
	for rec, err := range s.Records(context.Background(), key) {
		require.NoError(t, err)
		out = append(out, string(rec))
	}
	return out
}

// TestStoreContract checks the mms.BatchJobStore guarantees over the
// store and over a lease's store.
func TestStoreContract(t *testing.T) {
	for _, leased := range []bool{false, true} {
		t.Run(fmt.Sprint("leased=", leased), func(t *testing.T) {
			ctx := context.Background()
			st, _ := openStore(t, nil)
			var s mms.BatchJobStore = st
			if leased {
				l, err := st.LockJob(ctx, false)
				require.NoError(t, err)
				t.Cleanup(func() { l.Release(ctx) })
				s = l.Store()
			}
			_, err := s.Get(ctx, "plan.json")
			require.ErrorIs(t, err, fs.ErrNotExist)

			require.NoError(t, s.Put(ctx, "plan.json", []byte(`{"a":1}`)))
			require.NoError(t, s.Put(ctx, "plan.json", []byte(`{"a":2}`)))
			v, err := s.Get(ctx, "plan.json")
			require.NoError(t, err)
			assert.Equal(t, `{"a":2}`, string(v))
			require.NoError(t, s.Put(ctx, "done", nil))
			v, err = s.Get(ctx, "done")
			require.NoError(t, err)
			assert.Equal(t, []byte{}, v)

			assert.Empty(t, records(t, s, "sub-000001.log"), "a log that does not exist")
			want := []string{}
			for i := range 30 {
				rec := fmt.Sprintf("s req-%06d", i)
				require.NoError(t, s.Append(ctx, "sub-000001.log", []byte(rec)))
				want = append(want, rec)
			}
			assert.Equal(t, want, records(t, s, "sub-000001.log"))

			// A key names a value or a log, never both.
			err = s.Put(ctx, "sub-000001.log", []byte("x"))
			require.ErrorIs(t, err, fs.ErrExist)
			err = s.Append(ctx, "plan.json", []byte("x"))
			require.ErrorIs(t, err, fs.ErrExist)
			_, err = s.Get(ctx, "sub-000001.log")
			require.ErrorIs(t, err, fs.ErrNotExist)

			require.NoError(t, s.Put(ctx, "sub-000002.json", []byte("{}")))
			require.NoError(t, s.Put(ctx, "sub-000001.json", []byte("{}")))
			keys, err := s.Keys(ctx, "sub-")
			require.NoError(t, err)
			assert.Equal(t, []string{"sub-000001.json", "sub-000001.log", "sub-000002.json"}, keys)
			keys, err = s.Keys(ctx, "")
			require.NoError(t, err)
			assert.Equal(t, []string{"done", "plan.json", "sub-000001.json", "sub-000001.log", "sub-000002.json"}, keys)
		})
	}
}

// TestStoreValidation checks the key and record rules on both sides of
// each limit.
func TestStoreValidation(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, nil)
	long := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a'
		}
		return string(b)
	}
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"a", true}, {long(128), true}, {long(129), false}, {"", false}, {".a", false}, {"a.b_c-9", true}, {"A", false}, {"a/b", false},
	} {
		err := s.Put(ctx, tc.key, []byte("v"))
		var verr *mms.ValidationError
		if tc.ok {
			assert.NoError(t, err, "key %q", tc.key)
		} else if assert.ErrorAs(t, err, &verr, "key %q", tc.key) {
			assert.Equal(t, "key", verr.Field)
		}
	}
	for _, tc := range []struct {
		rec string
		ok  bool
	}{{"x", true}, {"", false}, {"a\nb", false}} {
		err := s.Append(ctx, "log", []byte(tc.rec))
		var verr *mms.ValidationError
		if tc.ok {
			assert.NoError(t, err)
		} else if assert.ErrorAs(t, err, &verr, "record %q", tc.rec) {
			assert.Equal(t, "record", verr.Field)
		}
	}
	pool := newPool(t, dbURL(t))
	for _, tc := range []struct {
		job string
		ok  bool
	}{{"j", true}, {long(200), true}, {long(201), false}, {"", false}, {"a\x00b", false}} {
		_, err := postgres.Open(ctx, pool, tc.job, nil)
		if tc.ok {
			assert.NoError(t, err)
		} else {
			var verr *mms.ValidationError
			assert.ErrorAs(t, err, &verr, "job %q", tc.job)
		}
	}
	_, err := postgres.Open(ctx, pool, "j", &postgres.Options{LeaseTTL: 99 * time.Millisecond})
	assert.Error(t, err)
	_, err = postgres.Open(ctx, pool, "j", &postgres.Options{LeaseTTL: 100 * time.Millisecond})
	assert.NoError(t, err)
}

// TestStoreJobsSideBySide checks that jobs in one database keep apart.
func TestStoreJobsSideBySide(t *testing.T) {
	ctx := context.Background()
	a, pool := openStore(t, nil)
	b, err := postgres.Open(ctx, pool, a.Job()+"-other", nil)
	require.NoError(t, err)
	require.NoError(t, a.Put(ctx, "k", []byte("a")))
	require.NoError(t, b.Append(ctx, "k", []byte("b"))) // the other kind, in the other job
	v, err := a.Get(ctx, "k")
	require.NoError(t, err)
	assert.Equal(t, "a", string(v))
	assert.Equal(t, []string{"b"}, records(t, b, "k"))
	la, err := a.LockJob(ctx, false)
	require.NoError(t, err)
	defer la.Release(ctx)
	lb, err := b.LockJob(ctx, false) // another job: its own lease
	require.NoError(t, err)
	defer lb.Release(ctx)
}

// TestStoreRecordsPages checks a log longer than one page of Records, and
// Appends from goroutines of one store.
func TestStoreRecordsPages(t *testing.T) {
	ctx := context.Background()
	s, pool := openStore(t, nil)
	const n = 10_050
	// Most rows go in by hand, for speed; the store appends after them.
	_, err := pool.Exec(ctx, `INSERT INTO mms_batch_keys VALUES ($1, 'log', 'l');
		INSERT INTO mms_batch_records SELECT $1, 'log', i, ('r' || i)::bytea FROM generate_series(1, 10000) i`, s.Job())
	if err != nil { // several statements need the simple protocol
		_, err = pool.Exec(ctx, `INSERT INTO mms_batch_keys VALUES ($1, 'log', 'l')`, s.Job())
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `INSERT INTO mms_batch_records SELECT $1, 'log', i, ('r' || i)::bytea FROM generate_series(1, 10000) i`, s.Job())
	}
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range (n - 10000) / 5 {
				assert.NoError(t, s.Append(ctx, "log", fmt.Appendf(nil, "g%d-%d", g, i)))
			}
		}()
	}
	wg.Wait()
	got := records(t, s, "log")
	require.Len(t, got, n)
	for i := range 10000 {
		require.Equal(t, fmt.Sprint("r", i+1), got[i])
	}
	last := map[int]int{}
	for _, r := range got[10000:] {
		var g, i int
		_, err := fmt.Sscanf(r, "g%d-%d", &g, &i)
		require.NoError(t, err)
		require.Equal(t, last[g], i, "goroutine %d's records in order", g)
		last[g]++
	}
}

// TestMigrate checks that concurrent migrations make the tables once, and
// that tables of a newer version are refused.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	admin := newPool(t, dbURL(t))
	schema := fmt.Sprintf("mig_%d", jobSeq.Add(1)+int64(time.Now().UnixNano()%1e6))
	_, err := admin.Exec(ctx, "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	cfg, err := pgxpool.ParseConfig(dbURL(t))
	require.NoError(t, err)
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	defer pool.Close()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); assert.NoError(t, postgres.Migrate(ctx, pool)) }()
	}
	wg.Wait()
	var v int
	require.NoError(t, pool.QueryRow(ctx, "SELECT version FROM mms_batch_schema").Scan(&v))
	assert.Equal(t, postgres.SchemaVersion, v)
	_, err = pool.Exec(ctx, "UPDATE mms_batch_schema SET version = 99")
	require.NoError(t, err)
	err = postgres.Migrate(ctx, pool)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "version 99")
	_, err = postgres.Open(ctx, pool, "j", nil)
	require.Error(t, err)
}

// TestLease checks one owner at a time: a second owner is refused at once
// naming the first, or waits; a stale owner's writes are refused.
func TestLease(t *testing.T) {
	ctx := context.Background()
	a, pool := openStore(t, &postgres.Options{Owner: "host-a pid 1", LeaseTTL: time.Second})
	b, err := postgres.Open(ctx, pool, a.Job(), &postgres.Options{Owner: "host-b pid 2", LeaseTTL: time.Second})
	require.NoError(t, err)

	la, err := a.LockJob(ctx, false)
	require.NoError(t, err)
	require.NoError(t, la.Check())
	require.NoError(t, la.Store().Put(ctx, "v", []byte("a1")))

	_, err = b.LockJob(ctx, false)
	var owned *mms.BatchJobOwnedError
	require.ErrorAs(t, err, &owned)
	assert.ErrorIs(t, err, mms.ErrBatchJobOwned)
	assert.Equal(t, "host-a pid 1", owned.Owner)
	assert.Contains(t, err.Error(), "host-a pid 1")
	assert.False(t, owned.Until.IsZero())

	// The lease is renewed: after three of its lengths it still holds.
	time.Sleep(3 * time.Second)
	require.NoError(t, la.Check())
	_, err = b.LockJob(ctx, false)
	require.ErrorIs(t, err, mms.ErrBatchJobOwned)

	// Released, it goes to the waiting owner at once.
	got := make(chan mms.BatchJobLease, 1)
	go func() {
		lb, err := b.LockJob(ctx, true)
		assert.NoError(t, err)
		got <- lb
	}()
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, la.Release(ctx))
	lb := <-got
	require.NotNil(t, lb)
	require.ErrorIs(t, la.Check(), mms.ErrBatchJobLeaseLost)
	err = la.Store().Put(ctx, "v", []byte("stale"))
	require.ErrorIs(t, err, mms.ErrBatchJobLeaseLost)
	err = la.Store().Append(ctx, "log", []byte("stale"))
	require.ErrorIs(t, err, mms.ErrBatchJobLeaseLost)
	v, err := b.Get(ctx, "v")
	require.NoError(t, err)
	assert.Equal(t, "a1", string(v), "the stale owner's write is refused")
	assert.Empty(t, records(t, b, "log"))
	require.NoError(t, lb.Store().Put(ctx, "v", []byte("b1")))
	require.NoError(t, lb.Release(ctx))
}

// TestLeaseStaleOwner checks an owner whose lease ran out while it could
// not renew (as a paused process): a new owner takes the job, and the old
// one's writes are refused although its renewal goroutine goes on.
func TestLeaseStaleOwner(t *testing.T) {
	ctx := context.Background()
	a, pool := openStore(t, &postgres.Options{LeaseTTL: time.Second})
	la, err := a.LockJob(ctx, false)
	require.NoError(t, err)
	defer la.Release(ctx)
	require.NoError(t, la.Store().Append(ctx, "log", []byte("a1")))
	// As if a had been paused past its lease: the lease ran out.
	_, err = pool.Exec(ctx, `UPDATE mms_batch_jobs SET lease_until = now() - interval '1 second' WHERE job = $1`, a.Job())
	require.NoError(t, err)
	b, err := postgres.Open(ctx, pool, a.Job(), nil)
	require.NoError(t, err)
	lb, err := b.LockJob(ctx, false)
	require.NoError(t, err)
	defer lb.Release(ctx)
	err = la.Store().Append(ctx, "log", []byte("a2"))
	require.ErrorIs(t, err, mms.ErrBatchJobLeaseLost)
	assert.Contains(t, err.Error(), "token")
	require.ErrorIs(t, la.Check(), mms.ErrBatchJobLeaseLost)
	require.NoError(t, lb.Store().Append(ctx, "log", []byte("b1")))
	assert.Equal(t, []string{"a1", "b1"}, records(t, b, "log"))
	if err := la.Store().Put(ctx, "x", []byte("y")); !errors.Is(err, mms.ErrBatchJobLeaseLost) {
		t.Fatalf("stale Put: %v", err)
	}
}
