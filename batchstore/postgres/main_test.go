package postgres_test

import (
	"context"
	"fmt"
	"iter"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/batchstore/postgres"
	"github.com/mms-sdk/mms-go/batchstore/postgres/internal/pgtest"
)

// The cluster the tests share (started on first use), unless
// MMS_TEST_DATABASE_URL names a server.
var shared struct {
	once sync.Once
	url  string
	srv  *pgtest.Server
	err  error
}

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(runWorker())
	}
	if os.Getenv(fakeEnv) != "" {
		os.Exit(serveFake())
	}
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the test cluster:", err)
		}
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// dbURL returns the shared database's URL, starting the cluster if needed.
func dbURL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv(pgtest.EnvURL); u != "" {
		return u
	}
	shared.once.Do(func() {
		shared.srv, shared.err = pgtest.Start(pgtest.Options{})
		if shared.err == nil {
			shared.url = shared.srv.URL
		}
	})
	if shared.err != nil {
		pgtest.Unavailable(t, shared.err)
	}
	return shared.url
}

// newPool connects to url, closed at the test's end.
func newPool(t testing.TB, url string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

var jobSeq atomic.Int64

// jobName is a job name no other test (or test run, on a shared server)
// uses.
func jobName(t testing.TB) string {
	return fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "."), os.Getpid(), jobSeq.Add(1))
}

// openStore opens a new job's store in the shared database.
func openStore(t testing.TB, opts *postgres.Options) (*postgres.Store, *pgxpool.Pool) {
	t.Helper()
	pool := newPool(t, dbURL(t))
	s, err := postgres.Open(context.Background(), pool, jobName(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, pool
}

func jobInput(n int) iter.Seq[mms.BatchRequest] {
	return func(yield func(mms.BatchRequest) bool) {
		for i := range n {
			if !yield(jobRequest(i)) {
				return
			}
		}
	}
}

func jobRequest(i int) mms.BatchRequest {
	return mms.BatchRequest{CustomID: fmt.Sprintf("req-%06d", i), Params: mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 16,
		Messages: []mms.MessageParam{mms.UserText(fmt.Sprintf("question %d", i))},
	}}
}
