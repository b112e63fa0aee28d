package postgres_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/mms-sdk/mms-go/batchstore/postgres"
	"github.com/mms-sdk/mms-go/batchstore/postgres/internal/pgtest"
)

// BenchmarkAppend measures one Append (a committed row), through the store
// and through a lease's store (fenced), on a throw-away cluster with fsync
// on (or MMS_TEST_DATABASE_URL).
func BenchmarkAppend(b *testing.B) {
	url := os.Getenv(pgtest.EnvURL)
	if url == "" {
		srv, err := pgtest.Start(pgtest.Options{Fsync: true})
		if err != nil {
			pgtest.Unavailable(b, err)
		}
		defer srv.Stop()
		url = srv.URL
	}
	for _, leased := range []bool{false, true} {
		b.Run(fmt.Sprint("leased=", leased), func(b *testing.B) {
			ctx := context.Background()
			s, err := postgres.Open(ctx, newPool(b, url), jobName(b), nil)
			if err != nil {
				b.Fatal(err)
			}
			var st interface {
				Append(context.Context, string, []byte) error
			} = s
			if leased {
				l, err := s.LockJob(ctx, false)
				if err != nil {
					b.Fatal(err)
				}
				defer l.Release(ctx)
				st = l.Store()
			}
			rec := []byte("s req-000001")
			for b.Loop() {
				if err := st.Append(ctx, "sub-000001.log", rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
