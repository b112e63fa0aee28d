// Package pgtest starts throw-away PostgreSQL clusters for the module's
// tests, benchmarks and example: initdb and pg_ctl from PATH or from
// Debian's /usr/lib/postgresql/*/bin, a temporary directory, a user other
// than root (initdb refuses root: as root the cluster runs as nobody), and
// a Unix socket only (no TCP port is opened).
package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// EnvURL names the environment variable with a database URL to test
// against instead of a throw-away cluster.
const EnvURL = "MMS_TEST_DATABASE_URL"

// Server is a throw-away cluster.
type Server struct {
	// URL connects to its database "postgres" as superuser "postgres".
	URL string

	bin  string // the directory of initdb and pg_ctl
	dir  string // the temporary directory: data/, the socket, the log
	cred *syscall.Credential
}

// Options configure a cluster.
type Options struct {
	// Fsync keeps fsync on, as a production server has it (default off:
	// a throw-away cluster need not survive a power loss, and tests run
	// faster).
	Fsync bool
}

// findBin returns the directory of initdb and pg_ctl.
func findBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return versionOf(b) - versionOf(a) }) // the newest first
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("initdb not found in PATH nor in /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)")
}

func versionOf(bin string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(bin)))
	return v
}

// Start initializes and starts a cluster in a new temporary directory.
func Start(opts Options) (*Server, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "mms-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, and no user nobody to run the cluster as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if out, err := s.cmd("initdb", "-D", s.data(), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	conf := fmt.Sprintf("listen_addresses = ''\nunix_socket_directories = '%s'\nport = 5432\nmax_connections = 100\n", dir)
	if !opts.Fsync {
		conf += "fsync = off\nfull_page_writes = off\n"
	}
	f, err := os.OpenFile(filepath.Join(s.data(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(conf)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := s.ctl("start"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.URL = fmt.Sprintf("postgres://postgres@/postgres?host=%s&port=5432&sslmode=disable", dir)
	return s, nil
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

func (s *Server) cmd(name string, args ...string) *exec.Cmd {
	c := exec.Command(filepath.Join(s.bin, name), args...)
	c.Env = []string{"PATH=" + s.bin + ":/usr/bin:/bin", "LC_ALL=C", "HOME=" + s.dir, "TZ=UTC"}
	c.Dir = s.dir
	if s.cred != nil {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return c
}

// ctl runs pg_ctl with the action (start, stop, restart), waiting for it.
func (s *Server) ctl(action string, args ...string) error {
	args = append([]string{"-D", s.data(), "-l", filepath.Join(s.dir, "log"), "-w", "-t", "60"}, append(args, action)...)
	if out, err := s.cmd("pg_ctl", args...).CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("pg_ctl %s: %w\n%s\n%s", action, err, out, tail(string(log)))
	}
	return nil
}

func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

// Restart stops the server (fast: open connections are closed) and starts
// it again.
func (s *Server) Restart() error { return s.ctl("restart", "-m", "fast") }

// Stop stops the server and removes its directory.
func (s *Server) Stop() error {
	err := s.ctl("stop", "-m", "immediate")
	if rerr := os.RemoveAll(s.dir); err == nil {
		err = rerr
	}
	return err
}

// URL returns the database to test against: EnvURL's, or a throw-away
// cluster's (srv, to Stop when done). When no cluster can start it skips
// tb, loudly, unless the environment variable CI is set: then it fails.
func URL(tb testing.TB, opts Options) (url string, srv *Server) {
	tb.Helper()
	if u := os.Getenv(EnvURL); u != "" {
		return u, nil
	}
	srv, err := Start(opts)
	if err != nil {
		Unavailable(tb, err)
	}
	return srv.URL, srv
}

// Unavailable ends tb for a server that could not start: Fatal with CI
// set, else Skip with a loud message.
func Unavailable(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("no PostgreSQL server could be started (CI is set, so this fails): %v", err)
	}
	msg := fmt.Sprintf("\n%s\nSKIPPED: no PostgreSQL server for the batchstore/postgres tests: %v\nSet %s, or install PostgreSQL (Debian: apt-get install postgresql).\n%s",
		strings.Repeat("!", 72), err, EnvURL, strings.Repeat("!", 72))
	fmt.Fprintln(os.Stderr, msg)
	tb.Skip(msg)
}
