package postgres_test

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkAppend measures one Append (a committed row), through the store
// and through a lease's store (fenced).
func BenchmarkAppend(b *testing.B) {
	for _, leased := range []bool{false, true} {
		b.Run(fmt.Sprint("leased=", leased), func(b *testing.B) {
			ctx := context.Background()
			s, _ := openStore(b, nil)
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
