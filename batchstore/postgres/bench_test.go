package postgres_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/batchstore/postgres"
	"github.com/mms-sdk/mms-go/batchstore/postgres/internal/pgtest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// fakeEnv marks the test binary re-executed as the fake service, so a
// benchmark measuring the job's memory does not count the fake's.
const fakeEnv = "MMS_PG_TEST_FAKE"

// serveFake serves the fake (batches never end: the benchmark submits
// only) and prints its URL, until stdin closes.
func serveFake() int {
	srv := mmstest.NewServer(mmstest.WithBatchProcessingTime(time.Hour))
	defer srv.Close()
	fmt.Println(srv.URL)
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// startFake starts the fake in a child process and returns its URL.
func startFake(b *testing.B) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fakeEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	return strings.TrimSpace(line)
}

// errSubmitted ends a benchmark's job once its last plan batch is created.
var errSubmitted = errors.New("submitted")

// BenchmarkPlanAndSubmit plans and submits a job of 250,000 and of
// 1,000,000 small requests (batches of 100,000) with its state in PostgreSQL (a
// throw-away cluster with fsync on, or MMS_TEST_DATABASE_URL) and in a
// directory, against the fake in a child process, and reports the job
// process's peak heap. The run stops once the last batch is created.
func BenchmarkPlanAndSubmit(b *testing.B) {
	url := os.Getenv(pgtest.EnvURL)
	if url == "" {
		srv, err := pgtest.Start(pgtest.Options{Fsync: true})
		if err != nil {
			pgtest.Unavailable(b, err)
		}
		defer srv.Stop()
		url = srv.URL
	}
	fake := startFake(b)
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	defer hc.CloseIdleConnections()
	client, err := mms.NewClient(option.WithBaseURL(fake), option.WithAPIKey(mmstest.DefaultAPIKey), option.WithHTTPClient(hc))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{250_000, 1_000_000} {
		for _, kind := range []string{"dir", "postgres"} {
			b.Run(fmt.Sprintf("n=%d/store=%s", n, kind), func(b *testing.B) { benchPlanAndSubmit(b, client, url, kind, n) })
		}
	}
}

// benchPlanAndSubmit is one case of BenchmarkPlanAndSubmit.
func benchPlanAndSubmit(b *testing.B, client *mms.Client, url, kind string, n int) {
	var peak uint64
	for b.Loop() {
		var p mms.BatchJobParams
		switch kind {
		case "dir":
			p.Dir = b.TempDir()
		case "postgres":
			pool, err := pgxpool.New(context.Background(), url)
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			s, err := postgres.Open(context.Background(), pool, fmt.Sprintf("bench-%d-%d", os.Getpid(), time.Now().UnixNano()), nil)
			if err != nil {
				b.Fatal(err)
			}
			p.Store, p.SpoolDir = s, b.TempDir()
		}
		b.StopTimer()
		debug.FreeOSMemory()
		stop := sampleHeapPeak(5 * time.Millisecond)
		b.StartTimer()
		p.Requests, p.PollInterval = jobInput(n), time.Hour
		p.OnStep = func(step string, seq int) error {
			if step == "created-saved" && seq == (n+mms.MaxBatchRequests-1)/mms.MaxBatchRequests {
				return errSubmitted
			}
			return nil
		}
		job, err := client.Messages.Batches.NewJob(p)
		if err != nil {
			b.Fatal(err)
		}
		for _, err := range job.Results(context.Background()) {
			if !errors.Is(err, errSubmitted) {
				b.Fatalf("job: %v", err)
			}
		}
		job.Close()
		b.StopTimer()
		peak = max(peak, stop())
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// sampleHeapPeak samples the heap's objects every interval until the
// returned function is called, which returns the highest sample.
func sampleHeapPeak(interval time.Duration) (stop func() uint64) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var peak uint64
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}
