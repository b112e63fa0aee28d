package mms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BatchJobLocker is a [BatchJobStore] that lets one process at a time own
// the job it holds. A batch job whose store implements it takes a lease
// (LockJob) before a run reads or writes anything, writes through the
// lease's store, and gives the lease up when the run ends; see [BatchJob],
// "One owner at a time". [BatchJobDir] implements it with a lock file;
// stores of other modules (batchstore/postgres) with a lease in their
// database.
type BatchJobLocker interface {
	BatchJobStore
	// LockJob makes the caller the job's owner. When another owner holds
	// the job, it fails at once with a *[BatchJobOwnedError] or, with wait
	// set, waits until the job is free (or ctx ends).
	LockJob(ctx context.Context, wait bool) (BatchJobLease, error)
}

// BatchJobLease is one owner's hold on a job, from
// [BatchJobLocker.LockJob].
type BatchJobLease interface {
	// Store is the job's store as this owner sees it. Its writes carry the
	// lease's fencing token: once the lease is lost (it expired, or a newer
	// owner took the job) they fail with an error matching
	// [ErrBatchJobLeaseLost], and write nothing.
	Store() BatchJobStore
	// Check returns nil while the lease is held and sure to stay held a
	// while longer, long enough to start an action the store cannot fence
	// (a batch create); else an error matching [ErrBatchJobLeaseLost].
	Check() error
	// Release gives the job up. Later writes through Store fail.
	Release(ctx context.Context) error
}

// ErrBatchJobOwned matches the error of a job that another owner holds
// (a *[BatchJobOwnedError]).
var ErrBatchJobOwned = errors.New("mms: the batch job is owned by another process")

// ErrBatchJobLeaseLost matches the error of a write or a check by an owner
// whose lease on the job is gone: it expired (the process was paused or cut
// off longer than the lease lasts) or was released.
var ErrBatchJobLeaseLost = errors.New("mms: the batch job's lease is lost")

// BatchJobOwnedError reports a job that another owner holds. It matches
// [ErrBatchJobOwned].
type BatchJobOwnedError struct {
	// Owner names the owner, as its store records it (for the stores of
	// this SDK: host name and process id).
	Owner string
	// Until is when the owner's lease ends unless renewed; zero when the
	// lease does not expire (a lock file, held while the process lives).
	Until time.Time
}

// Error names the job's owner and, when known, when its lease ends.
func (e *BatchJobOwnedError) Error() string {
	owner := cmp.Or(e.Owner, "an unnamed owner")
	if e.Until.IsZero() {
		return fmt.Sprintf("mms: the batch job is owned by %s", owner)
	}
	return fmt.Sprintf("mms: the batch job is owned by %s (lease until %s unless renewed)", owner, e.Until.UTC().Format(time.RFC3339))
}

// Is makes the error match ErrBatchJobOwned.
func (e *BatchJobOwnedError) Is(target error) bool { return target == ErrBatchJobOwned }

// BatchJobOwner is the owner name the SDK's stores record by default: the
// host name and the process id.
func BatchJobOwner() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	return host + " pid " + strconv.Itoa(os.Getpid())
}

// dirLockFile is the lock file of a BatchJobDir: no key's file (keys'
// files carry a suffix).
const dirLockFile = "lock"

// dirLockPoll is how often LockJob with wait tries a held lock again.
const dirLockPoll = 50 * time.Millisecond

// LockJob implements [BatchJobLocker] with an exclusive lock on the file
// "lock" in the directory (flock(2) where the system has it): the
// operating system drops it when the process ends, however it ends, so no
// lock outlives its process and none needs to expire. The file holds the
// owner's name ([BatchJobOwner]) while the lock is held. Two stores open on
// one directory in one process exclude each other too. A lease of a
// directory is lost only when released; a paused process keeps it (no
// other process can take the job meanwhile), so writes need no token.
//
// Where flock(2) is missing (Windows, Plan 9, WASI), LockJob excludes the
// stores of one process only.
func (d *BatchJobDir) LockJob(ctx context.Context, wait bool) (BatchJobLease, error) {
	if err := d.live(ctx); err != nil {
		return nil, err
	}
	path := filepath.Join(d.path, dirLockFile)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("mms: locking the batch job: %w", err)
		}
		held, err := lockFile(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("mms: locking the batch job: %w", err)
		}
		if held {
			owner := BatchJobOwner()
			if err := f.Truncate(0); err == nil {
				f.WriteAt([]byte(owner+"\n"), 0) // informative only: a failed write does not undo the lock
			}
			return &dirLease{dir: d, f: f}, nil
		}
		f.Close()
		if !wait {
			b, _ := os.ReadFile(path)
			return nil, &BatchJobOwnedError{Owner: strings.TrimSpace(string(b))}
		}
		t := time.NewTimer(dirLockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// dirLease is a held lock file.
type dirLease struct {
	dir *BatchJobDir

	mu sync.Mutex
	f  *os.File // nil once released
}

func (l *dirLease) Store() BatchJobStore { return l.dir }

func (l *dirLease) Check() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("mms: the batch job's lock file was released: %w", ErrBatchJobLeaseLost)
	}
	return nil
}

func (l *dirLease) Release(context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	l.f.Truncate(0) // the owner's name goes; the lock goes with the close
	unlockFile(l.f)
	err := l.f.Close()
	l.f = nil
	return err
}
