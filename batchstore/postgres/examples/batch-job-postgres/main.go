// Command batch-job-postgres runs a batch job whose state lives in
// PostgreSQL, across two processes, against mmstest (the SDK's in-process
// fake of the service: no key, no network): a first process starts the job
// and is killed (SIGKILL) part-way; a second process, started at once,
// waits for the dead owner's lease to run out, takes the job over and
// finishes it. At the end it checks that every request was answered and
// none was submitted twice.
//
//	DATABASE_URL=postgres://user@host/db go run ./examples/batch-job-postgres
//
// Without DATABASE_URL it starts a throw-away PostgreSQL cluster of its own
// (Debian's postgresql package, in a temporary directory), or says in one
// line that it cannot and exits.
//
// This example lives in the batchstore/postgres module (not in one of its
// own) because it needs pgx, which that module already requires, and the
// module's throw-away cluster helper.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/batchstore/postgres"
	"github.com/mms-sdk/mms-go/batchstore/postgres/internal/pgtest"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// childEnv holds a childConfig: the program, started again with it, is one
// of the job's processes.
const childEnv = "BATCH_JOB_POSTGRES_CHILD"

// config is what the flags set.
type config struct {
	n         int           // requests in the job
	killAfter int           // results the first process handles before it is killed
	perBatch  int           // BatchJobParams.MaxRequestsPerBatch (0: the default, 100,000)
	leaseTTL  time.Duration // the store's lease: how long the second process waits for the dead one's
	batchTime time.Duration // how long the fake takes over a batch
}

// childConfig is what a child process runs.
type childConfig struct {
	DB, Fake, Job, Name string
	N, PerBatch         int
	LeaseTTL            time.Duration
}

func main() {
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	c := config{}
	flag.IntVar(&c.n, "n", 250_000, "number of requests")
	flag.IntVar(&c.killAfter, "kill-after", 100_000, "kill the first process after this many results")
	flag.IntVar(&c.perBatch, "per-batch", 0, "most requests per batch (0: the service's limit, 100000)")
	flag.DurationVar(&c.leaseTTL, "lease", 5*time.Second, "the job's lease")
	flag.DurationVar(&c.batchTime, "batch-time", 2*time.Second, "how long the fake takes over a batch")
	flag.Parse()
	exampleclient.Announce("batch-job-postgres simulates its workload")
	url := os.Getenv("DATABASE_URL")
	if url == "" {
		srv, err := pgtest.Start(pgtest.Options{Fsync: true})
		if err != nil {
			fmt.Printf("batch-job-postgres: set DATABASE_URL, or install PostgreSQL for a throw-away cluster (%v)\n", strings.SplitN(err.Error(), "\n", 2)[0])
			return
		}
		url = srv.URL
		fmt.Println("no DATABASE_URL: started a throw-away PostgreSQL cluster")
		// The cluster goes when the program does, interrupted or not.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-sig
			srv.Stop()
			os.Exit(1)
		}()
		err = run(context.Background(), os.Stdout, url, os.Args[0], c)
		srv.Stop()
		if err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := run(context.Background(), os.Stdout, url, os.Args[0], c); err != nil {
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

// requests yields n small requests, made on the fly, the same on every
// range (and in every process), as a job requires.
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

// run hosts the fake, starts the first process (self, again), kills it
// after c.killAfter results, starts the second and checks the answers.
func run(ctx context.Context, out io.Writer, db, self string, c config) error {
	srv := mmstest.NewServer(mmstest.WithBatchProcessingTime(c.batchTime))
	defer srv.Close()
	cc := childConfig{DB: db, Fake: srv.URL, Job: fmt.Sprintf("example-%d-%d", os.Getpid(), time.Now().UnixNano()),
		N: c.n, PerBatch: c.perBatch, LeaseTTL: c.leaseTTL}
	fmt.Fprintf(out, "job %s: %d requests, state in PostgreSQL\n", cc.Job, c.n)
	answered := make([]bool, c.n) // a flag per request: 250 KB for 250,000
	twice := 0
	start := time.Now()

	for _, name := range []string{"first", "second"} {
		cc.Name = name
		killAt := 0
		if name == "first" {
			killAt = c.killAfter
		}
		handled, done, err := runChild(self, cc, killAt, func(i int) {
			if answered[i] {
				twice++
			}
			answered[i] = true
		})
		if err != nil {
			return fmt.Errorf("%s process: %w", name, err)
		}
		if done {
			fmt.Fprintf(out, "%s process: finished the job, %d results\n", name, handled)
			break
		}
		fmt.Fprintf(out, "%s process: killed (SIGKILL) after %d results; its lease runs out within %s\n", name, handled, c.leaseTTL)
	}
	fmt.Fprintf(out, "finished in %s\n", time.Since(start).Round(time.Millisecond))
	missing, resubmitted := 0, 0
	for i := range c.n {
		if !answered[i] {
			missing++
		}
		if srv.BatchSubmissions(customID(i)) != 1 {
			resubmitted++
		}
	}
	// A process killed after handing a result to its loop and before
	// recording it gets that result again in the next: at most one here.
	fmt.Fprintf(out, "answered: %d of %d (%d handled twice, by the killed process and its successor)\n", c.n-missing, c.n, twice)
	if missing > 0 || resubmitted > 0 {
		return fmt.Errorf("%d requests unanswered, %d submitted other than once", missing, resubmitted)
	}
	fmt.Fprintf(out, "every request submitted exactly once: %d of %d\n", c.n, c.n)
	return nil
}

// runChild runs one child process to its end, calling got for each
// result it reports; with killAt > 0 it kills the child after killAt
// results. done reports a child that finished the job.
func runChild(self string, cc childConfig, killAt int, got func(int)) (handled int, done bool, err error) {
	b, _ := json.Marshal(cc)
	cmd := exec.Command(self, "-test.run=^$") // the flag matters only to the example's test binary
	cmd.Env = append(os.Environ(), childEnv+"="+string(b))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, false, err
	}
	if err := cmd.Start(); err != nil {
		return 0, false, err
	}
	sc := bufio.NewScanner(stdout)
	var errLine string
	for sc.Scan() {
		line := sc.Text()
		if id, ok := strings.CutPrefix(line, "R "); ok {
			i, ok := requestNumber(id)
			if !ok || i < 0 || i >= cc.N {
				cmd.Process.Kill()
				cmd.Wait()
				return handled, false, fmt.Errorf("a result for a stray custom_id %q", id)
			}
			got(i)
			handled++
			if handled == killAt {
				cmd.Process.Kill()
			}
			continue
		}
		if strings.HasPrefix(line, "E ") {
			errLine = line[2:]
		}
		if line == "D" {
			done = true
		}
	}
	werr := cmd.Wait()
	switch {
	case killAt > 0 && handled >= killAt:
		return handled, false, nil
	case errLine != "":
		return handled, false, errors.New(errLine)
	case werr != nil || !done:
		return handled, false, fmt.Errorf("ended before the job did: %v", werr)
	}
	return handled, true, nil
}

// child runs the job in this process, printing "R custom_id" per result
// and "D" when the job is done, or "E error".
func child() int {
	var cc childConfig
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	fail := func(err error) int {
		fmt.Fprintln(out, "E", err)
		return 1
	}
	if err := json.Unmarshal([]byte(os.Getenv(childEnv)), &cc); err != nil {
		return fail(err)
	}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, cc.DB)
	if err != nil {
		return fail(err)
	}
	defer pool.Close()
	store, err := postgres.Open(ctx, pool, cc.Job, &postgres.Options{Owner: cc.Name + " process, pid " + strconv.Itoa(os.Getpid()), LeaseTTL: cc.LeaseTTL})
	if err != nil {
		return fail(err)
	}
	client, err := mms.NewClient(option.WithBaseURL(cc.Fake), option.WithAPIKey(mmstest.DefaultAPIKey))
	if err != nil {
		return fail(err)
	}
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests:            requests(cc.N),
		Store:               store,
		WaitForOwner:        true, // the second process waits for the first's lease
		MaxRequestsPerBatch: cc.PerBatch,
		PollInterval:        200 * time.Millisecond,
		MaxPollInterval:     time.Second,
	})
	if err != nil {
		return fail(err)
	}
	for res, err := range job.Results(ctx) {
		if err != nil {
			return fail(err)
		}
		// A real program would store or act on res here. The line goes
		// out at once: the parent counts results as they come.
		fmt.Fprintln(out, "R", res.CustomID)
		out.Flush()
	}
	fmt.Fprintln(out, "D")
	return 0
}
