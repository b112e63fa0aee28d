package postgres_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/batchstore/postgres"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// workerEnv holds a workerConfig: the test binary, re-executed with it,
// runs one batch job as a separate process would (TestMain calls
// runWorker instead of the tests).
const workerEnv = "MMS_PG_TEST_WORKER"

// workerConfig is what a worker process runs.
type workerConfig struct {
	DB, Job, Fake, Owner string
	N, PerBatch          int
	TTL                  time.Duration
	Wait                 bool
	ExitAt               int    // exit (code 3, as a crash) at this step boundary (1-based; 0 never)
	StopAt               string // print "F" at this step ("intent/2") and wait for a line on stdin, to be stopped (SIGSTOP) meanwhile
}

// Exit codes of a worker.
const (
	workerDone   = 0
	workerFailed = 2
	workerCrash  = 3
)

// runWorker is the worker's main. It prints one line per step ("S
// step/seq"), per result ("R custom_id"), before stopping itself ("F"),
// and for the error that ends it ("E ...", "E lost ..." for a lost lease,
// "E owned ..." for a job another process owns).
func runWorker() int {
	var c workerConfig
	if err := json.Unmarshal([]byte(os.Getenv(workerEnv)), &c); err != nil {
		fmt.Println("E config:", err)
		return workerFailed
	}
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush() // a line is out before the process can die
	}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, c.DB)
	if err != nil {
		say("E pool: %v", err)
		return workerFailed
	}
	defer pool.Close()
	store, err := postgres.Open(ctx, pool, c.Job, &postgres.Options{Owner: c.Owner, LeaseTTL: c.TTL})
	if err != nil {
		say("E open: %v", err)
		return workerFailed
	}
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(c.Fake))
	if err != nil {
		say("E client: %v", err)
		return workerFailed
	}
	steps := 0
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests: jobInput(c.N), Store: store, WaitForOwner: c.Wait,
		MaxRequestsPerBatch: c.PerBatch, PollInterval: 5 * time.Millisecond, MaxPollInterval: 20 * time.Millisecond,
		OnStep: func(step string, seq int) error {
			steps++
			name := fmt.Sprintf("%s/%d", step, seq)
			say("S %s", name)
			if steps == c.ExitAt {
				os.Exit(workerCrash)
			}
			if name == c.StopAt {
				// The test stops this process (SIGSTOP) once it reads "F",
				// continues it (SIGCONT) later and then sends a line.
				say("F")
				bufio.NewReader(os.Stdin).ReadString('\n')
			}
			return nil
		},
	})
	if err != nil {
		say("E job: %v", err)
		return workerFailed
	}
	for res, err := range job.Results(ctx) {
		switch {
		case errors.Is(err, mms.ErrBatchJobLeaseLost):
			say("E lost %v", err)
			return workerFailed
		case errors.Is(err, mms.ErrBatchJobOwned):
			say("E owned %v", err)
			return workerFailed
		case err != nil:
			say("E %v", err)
			return workerFailed
		}
		say("R %s", res.CustomID)
	}
	return workerDone
}

// worker is a running worker process.
type worker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string // its output, closed at its end
	done  chan struct{}
	code  int
}

// startWorker starts a worker process.
func startWorker(t *testing.T, c workerConfig) *worker {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+string(b))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &worker{cmd: cmd, stdin: stdin, lines: make(chan string, 1<<16), done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
		cmd.Wait()
		w.code = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			w.code = -int(ws.Signal())
		}
		close(w.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		<-w.done
	})
	return w
}

// results reads the worker's output to its end: the custom_ids it
// delivered, and its last error line.
func (w *worker) results(timeout time.Duration) (ids []string, errLine string, ok bool) {
	deadline := time.After(timeout)
	for {
		select {
		case line, open := <-w.lines:
			if !open {
				<-w.done
				return ids, errLine, true
			}
			switch {
			case strings.HasPrefix(line, "R "):
				ids = append(ids, line[2:])
			case strings.HasPrefix(line, "E "):
				errLine = line
			}
			if os.Getenv("MMS_PG_TEST_TRACE") != "" {
				fmt.Fprintf(os.Stderr, "worker %d: %s\n", w.cmd.Process.Pid, line)
			}
		case <-deadline:
			return ids, errLine, false
		}
	}
}

// waitLine reads the worker's output until a line equal to want, and
// returns the custom_ids delivered before it.
func (w *worker) waitLine(want string, timeout time.Duration) (ids []string, ok bool) {
	deadline := time.After(timeout)
	for {
		select {
		case line, open := <-w.lines:
			if !open {
				return ids, false
			}
			if strings.HasPrefix(line, "R ") {
				ids = append(ids, line[2:])
			}
			if line == want {
				return ids, true
			}
		case <-deadline:
			return ids, false
		}
	}
}

// stopped reports whether the process is stopped (state T in
// /proc/<pid>/stat).
func stopped(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && (s[i+2] == 'T' || s[i+2] == 't')
}
