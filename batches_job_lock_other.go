//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package mms

import (
	"os"
	"path/filepath"
	"sync"
)

// Without flock(2), a lock file excludes the stores of this process only.
var (
	lockedMu sync.Mutex
	locked   = map[string]bool{}
)

func lockKey(f *os.File) string {
	if p, err := filepath.Abs(f.Name()); err == nil {
		return p
	}
	return f.Name()
}

func lockFile(f *os.File) (bool, error) {
	lockedMu.Lock()
	defer lockedMu.Unlock()
	k := lockKey(f)
	if locked[k] {
		return false, nil
	}
	locked[k] = true
	return true, nil
}

func unlockFile(f *os.File) error {
	lockedMu.Lock()
	defer lockedMu.Unlock()
	delete(locked, lockKey(f))
	return nil
}
