package mms_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// BenchmarkBatchJobPeakMemory runs whole jobs of small requests (default
// batch limits, state in a directory) against a fake in a child process,
// and reports the job process's peak heap, bytes allocated and (on Linux)
// peak RSS, per job. The target is a peak flat in the number of requests.
//
// peak-heap-MB is the highest runtime/metrics
// "/memory/classes/heap/objects:bytes" (live objects plus dead ones not
// yet swept, as MemStats.HeapAlloc) sampled every 5 ms during the job,
// after a GC before it. peak-RSS-MB is VmHWM, reset before each job by
// writing 5 to /proc/self/clear_refs (after debug.FreeOSMemory).
func BenchmarkBatchJobPeakMemory(b *testing.B) {
	for _, n := range []int{25_000, 100_000, 250_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			url := startChildFake(b)
			hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
			b.Cleanup(hc.CloseIdleConnections)
			client, err := mms.NewClient(option.WithBaseURL(url), option.WithAPIKey(mmstest.DefaultAPIKey), option.WithHTTPClient(hc))
			require.NoError(b, err)
			var peakHeap, peakRSS, allocs uint64
			rssOK := true
			for range b.N {
				b.StopTimer()
				dir, err := os.MkdirTemp(b.TempDir(), "job-")
				require.NoError(b, err)
				debug.FreeOSMemory() // a GC, and the last job's pages back to the OS
				rssOK = rssOK && resetPeakRSS()
				allocs0 := readHeapMetric("/gc/heap/allocs:bytes")
				stop := sampleHeapPeak(5 * time.Millisecond)
				b.StartTimer()

				got := runBenchJob(b, client, n, dir)

				b.StopTimer()
				peak := stop()
				allocs += readHeapMetric("/gc/heap/allocs:bytes") - allocs0
				peakHeap = max(peakHeap, peak)
				if rssOK {
					rss, ok := peakRSSBytes()
					rssOK = ok
					peakRSS = max(peakRSS, rss)
				}
				if got != n {
					b.Fatalf("%d results, want %d", got, n)
				}
				b.StartTimer()
			}
			const mb = 1 << 20
			b.ReportMetric(float64(peakHeap)/mb, "peak-heap-MB")
			b.ReportMetric(float64(allocs)/float64(b.N)/mb, "total-alloc-MB")
			if rssOK {
				b.ReportMetric(float64(peakRSS)/mb, "peak-RSS-MB")
			}
		})
	}
}

// runBenchJob runs a job of n small requests to the end and returns how
// many results it delivered.
func runBenchJob(b *testing.B, client *mms.Client, n int, dir string) int {
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests: jobInput(n), Dir: dir,
		PollInterval: 100 * time.Millisecond, MaxPollInterval: time.Second,
	})
	require.NoError(b, err)
	defer job.Close()
	got := 0
	for _, err := range job.Results(context.Background()) {
		require.NoError(b, err)
		got++
	}
	return got
}

func readHeapMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// sampleHeapPeak samples the heap's objects every interval until the
// returned function is called, which returns the highest sample.
// runtime/metrics reads it without stopping the world, as
// runtime.ReadMemStats would.
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

// resetPeakRSS sets the process's peak RSS (VmHWM) to its current RSS; it
// reports false where that cannot be done (not Linux, or not allowed).
// getrusage's ru_maxrss cannot be reset, so the peak is read from
// /proc/self/status instead.
func resetPeakRSS() bool {
	if runtime.GOOS != "linux" {
		return false
	}
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSSBytes reads VmHWM from /proc/self/status.
func peakRSSBytes() (uint64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))), 10, 64)
		return kb << 10, err == nil
	}
	return 0, false
}
