// Command batch-job runs a large workload through a batch job against
// mmstest, the SDK's in-process fake of the service (no key, no network):
// it interrupts the job part-way, as a program being stopped would, then
// starts a new job over the same state directory and input, which resumes
// where the first one stopped. At the end it checks that every request was
// answered exactly once across both runs.
//
//	go run ./examples/batch-job -n 250000 -interrupt-after 100000
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"log"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// config is what the flags set.
type config struct {
	n              int    // requests in the workload
	interruptAfter int    // results handled before the first run is stopped; 0 never stops it
	perBatch       int    // BatchJobParams.MaxRequestsPerBatch (0: the default, 100,000)
	dir            string // the job's state directory ("": a temporary one)
	terminal       bool   // progress overwrites one line with "\r"

	batchTime time.Duration // how long the fake takes over a batch
}

func main() {
	c := config{batchTime: 2 * time.Second}
	flag.IntVar(&c.n, "n", 250_000, "number of requests")
	flag.IntVar(&c.interruptAfter, "interrupt-after", 100_000, "stop the first run after this many results (0: never)")
	flag.IntVar(&c.perBatch, "per-batch", 0, "most requests per batch (0: the service's limit, 100000)")
	flag.StringVar(&c.dir, "dir", "", "new or empty directory for the job's state (default: a temporary directory, removed at the end)")
	flag.Parse()
	if fi, err := os.Stdout.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		c.terminal = true
	}
	exampleclient.Announce("batch-job simulates its workload") // the fake varies the outcomes
	if err := run(context.Background(), os.Stdout, c); err != nil {
		log.Fatal(err)
	}
}

// customID names request i; requestNumber reads i back.
func customID(i int) string { return "req-" + strconv.Itoa(i) }

func requestNumber(id string) (int, bool) {
	s, ok := strings.CutPrefix(id, "req-")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil
}

// requests yields n small requests, made on the fly: a job ranges its input
// several times and never needs it all in memory, so neither does the
// program. Every range yields the same requests in the same order, as a
// job requires.
func requests(n int) iter.Seq[mms.BatchRequest] {
	return func(yield func(mms.BatchRequest) bool) {
		for i := range n {
			req := mms.BatchRequest{CustomID: customID(i), Params: mms.MessageCreateParams{
				Model:     "mms-large-1",
				MaxTokens: 32,
				Messages:  []mms.MessageParam{mms.UserText("What is " + strconv.Itoa(i) + " squared?")},
			}}
			if !yield(req) {
				return
			}
		}
	}
}

// outcomes makes the fake's answers varied: every 97th request expires on
// its first submission (the job resubmits it, and it succeeds), every
// 1,000th is refused as invalid (the job delivers that error as it is).
func outcomes(id string, submission int) mmstest.BatchOutcome {
	i, _ := requestNumber(id)
	switch {
	case i%1000 == 999:
		return mmstest.BatchOutcome{Type: "errored", ErrorType: "invalid_request_error", Message: "this one is refused"}
	case i%97 == 96 && submission == 1:
		return mmstest.BatchOutcome{Type: "expired"}
	}
	return mmstest.BatchOutcome{}
}

// tally records what the runs delivered: one flag per request number, not
// a map of custom_ids, so checking 250,000 answers costs 250 KB.
type tally struct {
	answered   []bool
	duplicates int
	strays     int // custom_ids that are not this program's
	outcomes   map[string]int
}

func (t *tally) add(res mms.BatchJobResult) {
	i, ok := requestNumber(res.CustomID)
	switch {
	case !ok || i < 0 || i >= len(t.answered):
		t.strays++
	case t.answered[i]:
		t.duplicates++
	default:
		t.answered[i] = true
	}
	t.outcomes[outcomeName(res.Result)]++
}

func outcomeName(v mms.BatchResultValue) string {
	switch v.(type) {
	case mms.SucceededBatchResult:
		return "succeeded"
	case mms.ErroredBatchResult:
		return "errored"
	case mms.CanceledBatchResult:
		return "canceled"
	case mms.ExpiredBatchResult:
		return "expired"
	}
	return "other"
}

func run(ctx context.Context, out io.Writer, c config) error {
	if c.dir == "" {
		dir, err := os.MkdirTemp("", "batch-job-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		c.dir = dir
	} else if entries, err := os.ReadDir(c.dir); err == nil && len(entries) > 0 {
		// The fake lives in this process: state from another run names
		// batches this fake never made.
		return fmt.Errorf("%s is not empty: give a new or empty directory", c.dir)
	}

	srv := mmstest.NewServer(mmstest.WithBatchProcessingTime(c.batchTime), mmstest.WithBatchOutcomes(outcomes))
	defer srv.Close()
	client, err := mms.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey(mmstest.DefaultAPIKey))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d requests, state in %s\n", c.n, c.dir)

	t := &tally{answered: make([]bool, c.n), outcomes: map[string]int{}}
	start := time.Now()

	// The first run stops after interruptAfter results, as a program
	// receiving SIGINT would: its batches keep processing meanwhile.
	interrupted, err := runJob(ctx, out, client, c, t, c.interruptAfter)
	if err != nil {
		return fmt.Errorf("first run: %w", err)
	}
	if interrupted {
		fmt.Fprintf(out, "interrupted after %d results; starting a new job over the same state\n", c.interruptAfter)
		if _, err := runJob(ctx, out, client, c, t, 0); err != nil {
			return fmt.Errorf("resumed run: %w", err)
		}
	}
	fmt.Fprintf(out, "finished in %s\n", time.Since(start).Round(time.Millisecond))
	return t.report(out)
}

// runJob runs one job over c.dir until it ends, or, with stopAfter > 0,
// until stopAfter results were handled; it reports whether it was stopped.
func runJob(ctx context.Context, out io.Writer, client *mms.Client, c config, t *tally, stopAfter int) (interrupted bool, err error) {
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests:            requests(c.n),
		Dir:                 c.dir,
		MaxRequestsPerBatch: c.perBatch,
		PollInterval:        200 * time.Millisecond,
		MaxPollInterval:     time.Second,
	})
	if err != nil {
		return false, err
	}
	defer job.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopProgress := showProgress(out, job, c.terminal)
	defer stopProgress()

	handled := 0
	for res, err := range job.Results(ctx) {
		if err != nil {
			if errors.Is(err, context.Canceled) && stopAfter > 0 && handled >= stopAfter {
				stopProgress()
				return true, nil
			}
			return false, err
		}
		t.add(res) // A real program would store or act on res here.
		handled++
		if handled == stopAfter {
			cancel()
		}
	}
	stopProgress()
	fmt.Fprintf(out, "job done: %s\n", job.Progress())
	return false, nil
}

// showProgress prints the job's progress every 500 ms until the returned
// function is called (which may be called more than once): on a terminal
// it rewrites one line, elsewhere it prints a line per tick.
func showProgress(out io.Writer, job *mms.BatchJob, terminal bool) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				if terminal {
					fmt.Fprintln(out)
				}
				return
			case <-tick.C:
				if terminal {
					fmt.Fprintf(out, "\r\033[K%s", job.Progress())
				} else {
					fmt.Fprintf(out, "progress: %s\n", job.Progress())
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done); wg.Wait() })
	}
}

// report prints the outcomes and checks that each request was answered
// exactly once.
func (t *tally) report(out io.Writer) error {
	for _, name := range []string{"succeeded", "errored", "canceled", "expired", "other"} {
		fmt.Fprintf(out, "%-9s %d\n", name, t.outcomes[name])
	}
	missing := 0
	for _, ok := range t.answered {
		if !ok {
			missing++
		}
	}
	if missing > 0 || t.duplicates > 0 || t.strays > 0 {
		return fmt.Errorf("answers are wrong: %d requests unanswered, %d answered twice, %d unknown custom_ids", missing, t.duplicates, t.strays)
	}
	fmt.Fprintf(out, "every custom_id answered exactly once: %d of %d\n", len(t.answered)-missing, len(t.answered))
	return nil
}
