package mms

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// MemoryRoot is the directory the memory tool's paths live under: every
// path the model writes starts with it.
const MemoryRoot = "/memories"

// Default bounds of a [MemoryDir] (those of the service's memory stores).
const (
	DefaultMemoryFileBytes  = maxMemoryContentBytes // one file's content
	DefaultMemoryTotalBytes = 10 << 20              // every file together
)

// memoryTempPrefix names a MemoryDir's files being written: hidden from
// views and refused as the model's names.
const memoryTempPrefix = ".memtmp-"

// MemoryDirLimits bounds what a [MemoryDir] stores. A zero field takes
// its default.
type MemoryDirLimits struct {
	// MaxFileBytes bounds one file's content (DefaultMemoryFileBytes).
	MaxFileBytes int64
	// MaxTotalBytes bounds the content of every file together
	// (DefaultMemoryTotalBytes).
	MaxTotalBytes int64
}

// A MemoryDir is the memory tool ([MemoryTool], [MemoryCommand]) carried
// out on a local directory, ready for a [ToolRunner]: put it in
// ToolRunnerParams.Tools and the runner sends the memory tool and answers
// its calls.
//
// The model's paths (/memories/notes/a.md) map to the directory's files
// (notes/a.md). A path outside /memories, with an empty, "." or ".."
// segment, a backslash or a control character, over 1,024 bytes, or
// through a symbolic link is refused; files are opened through [os.Root],
// so no link leads out of the directory. A file is written whole to a
// temporary file and renamed over the old one: a crash leaves the old
// content or the new, never a mix. Sizes are bounded by [MemoryDirLimits].
// Commands run one at a time. Errors name the model's path, never the
// directory's place on the disk.
type MemoryDir struct {
	dir    string
	root   *os.Root
	limits MemoryDirLimits
	mu     sync.Mutex
}

// NewMemoryDir returns the memory tool over dir, creating it if needed.
// Close releases it.
func NewMemoryDir(dir string, limits MemoryDirLimits) (*MemoryDir, error) {
	if limits.MaxFileBytes < 0 || limits.MaxTotalBytes < 0 {
		return nil, invalid("MemoryDirLimits", "must not be negative")
	}
	limits.MaxFileBytes = cmp.Or(limits.MaxFileBytes, DefaultMemoryFileBytes)
	limits.MaxTotalBytes = cmp.Or(limits.MaxTotalBytes, DefaultMemoryTotalBytes)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("mms: memory directory: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("mms: memory directory: %w", err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("mms: memory directory: %w", err)
	}
	return &MemoryDir{dir: abs, root: root, limits: limits}, nil
}

// Close releases the directory.
func (m *MemoryDir) Close() error { return m.root.Close() }

// ToolParam is the memory tool as the request sends it.
func (m *MemoryDir) ToolParam() Tool { return MemoryTool{Version: Memory20250818, Name: "memory"} }

// Definition reports that the memory tool is not a custom tool: a
// [ToolRunner] sends [MemoryDir.ToolParam] instead (see [BuiltinTool]).
func (m *MemoryDir) Definition() (CustomTool, error) {
	return CustomTool{}, errors.New("the memory tool is a built-in tool: send MemoryDir.ToolParam")
}

// Run answers one call of the memory tool: input is the call's JSON. The
// result is the command's text; an error becomes an is_error result.
func (m *MemoryDir) Run(ctx context.Context, input json.RawMessage) (ContentBlocks, error) {
	cmd, err := ParseMemoryCommand(input)
	if err != nil {
		return nil, err
	}
	out, err := m.Do(ctx, cmd)
	if err != nil {
		return nil, err
	}
	return ContentBlocks{TextBlock{Text: out}}, nil
}

// Do carries out one command and returns the text the model reads.
func (m *MemoryDir) Do(ctx context.Context, cmd MemoryCommand) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch c := cmd.(type) {
	case MemoryViewCommand:
		return m.view(c)
	case MemoryCreateCommand:
		return m.create(c)
	case MemoryStrReplaceCommand:
		return m.strReplace(c)
	case MemoryInsertCommand:
		return m.insert(c)
	case MemoryDeleteCommand:
		return m.delete(c)
	case MemoryRenameCommand:
		return m.rename(c)
	case UnknownMemoryCommand:
		return "", fmt.Errorf("unknown memory command %q", c.Type)
	case nil:
		return "", errors.New("no memory command")
	}
	return "", fmt.Errorf("unknown memory command %T", cmd)
}

// rel maps a model path to the directory's relative path ("." is the
// root) after checking it.
func (m *MemoryDir) rel(field, p string) (string, error) {
	switch {
	case len(p) > maxMemoryPathBytes:
		return "", fmt.Errorf("%s: the path is over %d bytes", field, maxMemoryPathBytes)
	case strings.ContainsFunc(p, unicode.IsControl):
		return "", fmt.Errorf("%s %q: the path has a control character", field, p)
	case strings.Contains(p, `\`):
		return "", fmt.Errorf("%s %q: the path has a backslash", field, p)
	case p != MemoryRoot && !strings.HasPrefix(p, MemoryRoot+"/"):
		return "", fmt.Errorf("%s %q: the path must start with %s", field, p, MemoryRoot)
	}
	rest := strings.TrimSuffix(strings.TrimPrefix(p, MemoryRoot), "/")
	if rest == "" {
		return ".", nil
	}
	segs := strings.Split(rest[1:], "/")
	for _, s := range segs {
		switch {
		case s == "" || s == "." || s == "..":
			return "", fmt.Errorf("%s %q: the path has an empty, \".\" or \"..\" segment", field, p)
		case strings.HasPrefix(s, memoryTempPrefix):
			return "", fmt.Errorf("%s %q: names starting with %s are reserved", field, p, memoryTempPrefix)
		}
	}
	rel := path.Join(segs...)
	// A link anywhere on the way is refused: os.Root keeps opens inside
	// the directory, and this keeps renames and deletes there too.
	for i := range segs {
		fi, err := m.root.Lstat(path.Join(segs[:i+1]...))
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("%s %q: %s", field, p, reason(err))
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%s %q: the path goes through a symbolic link", field, p)
		}
	}
	return rel, nil
}

// modelPath is rel as the model writes it.
func modelPath(rel string) string {
	if rel == "." {
		return MemoryRoot
	}
	return MemoryRoot + "/" + rel
}

// reason is what an os error says without the file's place on the disk.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrExist):
		return "already exists"
	}
	return err.Error()
}

func (m *MemoryDir) view(c MemoryViewCommand) (string, error) {
	rel, err := m.rel("path", c.Path)
	if err != nil {
		return "", err
	}
	fi, err := m.root.Stat(rel)
	if err != nil {
		return "", fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	if fi.IsDir() {
		if c.ViewRange != nil {
			return "", fmt.Errorf("view_range: %s is a directory", modelPath(rel))
		}
		return m.listing(rel)
	}
	content, err := m.read(rel)
	if err != nil {
		return "", err
	}
	lines := splitLines(content)
	from, to := 1, len(lines)
	if r := c.ViewRange; r != nil {
		from, to = r[0], r[1]
		if to == -1 {
			to = len(lines)
		}
		if from < 1 || from > max(len(lines), 1) || to < from || to > len(lines) {
			return "", fmt.Errorf("view_range [%d, %d]: lines run from 1 to %d (an end of -1 reads to the last)", r[0], r[1], len(lines))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Here is the content of %s with line numbers:\n", modelPath(rel))
	for i := from; i <= to && i <= len(lines); i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i, lines[i-1])
	}
	return b.String(), nil
}

// listing lists a directory two levels deep, hidden names left out.
func (m *MemoryDir) listing(rel string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Here are the files and directories up to 2 levels deep in %s (a file's size in bytes, or dir):\n", modelPath(rel))
	err := fs.WalkDir(m.root.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		depth := 0 // segments below rel
		if p != rel {
			inner := p
			if rel != "." {
				inner = strings.TrimPrefix(p, rel+"/")
			}
			depth = strings.Count(inner, "/") + 1
		}
		if p != rel && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if depth > 2 {
			return fs.SkipDir
		}
		if d.IsDir() {
			fmt.Fprintf(&b, "dir\t%s/\n", modelPath(p))
			if depth == 2 {
				return fs.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%d\t%s\n", info.Size(), modelPath(p))
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	return b.String(), nil
}

// read returns a file's content, refusing one over the file bound.
func (m *MemoryDir) read(rel string) (string, error) {
	f, err := m.root.Open(rel)
	if err != nil {
		return "", fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, m.limits.MaxFileBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	if int64(len(b)) > m.limits.MaxFileBytes {
		return "", fmt.Errorf("%s: the file is over %d bytes", modelPath(rel), m.limits.MaxFileBytes)
	}
	return string(b), nil
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// fileRel is rel for a command that needs a file, not the root.
func (m *MemoryDir) fileRel(field, p string) (string, error) {
	rel, err := m.rel(field, p)
	if err == nil && rel == "." {
		err = fmt.Errorf("%s: %s itself cannot be changed", field, MemoryRoot)
	}
	return rel, err
}

func (m *MemoryDir) create(c MemoryCreateCommand) (string, error) {
	rel, err := m.fileRel("path", c.Path)
	if err != nil {
		return "", err
	}
	if err := m.write(rel, c.FileText); err != nil {
		return "", err
	}
	return "File created successfully at: " + modelPath(rel), nil
}

func (m *MemoryDir) strReplace(c MemoryStrReplaceCommand) (string, error) {
	rel, err := m.fileRel("path", c.Path)
	if err != nil {
		return "", err
	}
	if c.OldStr == "" {
		return "", errors.New("old_str: must not be empty")
	}
	content, err := m.read(rel)
	if err != nil {
		return "", err
	}
	switch n := strings.Count(content, c.OldStr); n {
	case 0:
		return "", fmt.Errorf("old_str: not found in %s", modelPath(rel))
	case 1:
	default:
		return "", fmt.Errorf("old_str: found %d times in %s; it must be unique", n, modelPath(rel))
	}
	if err := m.write(rel, strings.Replace(content, c.OldStr, c.NewStr, 1)); err != nil {
		return "", err
	}
	return "The file " + modelPath(rel) + " has been edited.", nil
}

func (m *MemoryDir) insert(c MemoryInsertCommand) (string, error) {
	rel, err := m.fileRel("path", c.Path)
	if err != nil {
		return "", err
	}
	content, err := m.read(rel)
	if err != nil {
		return "", err
	}
	lines := splitLines(content)
	if c.InsertLine < 0 || c.InsertLine > len(lines) {
		return "", fmt.Errorf("insert_line %d: must be from 0 to %d, the file's line count", c.InsertLine, len(lines))
	}
	add := splitLines(c.InsertText)
	if c.InsertText != "" && len(add) == 0 {
		add = []string{""}
	}
	lines = slices.Insert(lines, c.InsertLine, add...)
	if err := m.write(rel, strings.Join(lines, "\n")+"\n"); err != nil {
		return "", err
	}
	return fmt.Sprintf("The file %s has been edited: text inserted after line %d.", modelPath(rel), c.InsertLine), nil
}

func (m *MemoryDir) delete(c MemoryDeleteCommand) (string, error) {
	rel, err := m.fileRel("path", c.Path)
	if err != nil {
		return "", err
	}
	if _, err := m.root.Lstat(rel); err != nil {
		return "", fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	// rel has no link on its way (m.rel), and RemoveAll removes links
	// inside it without following them.
	if err := os.RemoveAll(filepath.Join(m.dir, filepath.FromSlash(rel))); err != nil {
		return "", fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	return "Deleted " + modelPath(rel), nil
}

func (m *MemoryDir) rename(c MemoryRenameCommand) (string, error) {
	from, err := m.fileRel("old_path", c.OldPath)
	if err != nil {
		return "", err
	}
	to, err := m.fileRel("new_path", c.NewPath)
	if err != nil {
		return "", err
	}
	if to == from || strings.HasPrefix(to, from+"/") {
		return "", fmt.Errorf("new_path %q: cannot move %s into itself", c.NewPath, modelPath(from))
	}
	if _, err := m.root.Lstat(from); err != nil {
		return "", fmt.Errorf("old_path %s: %s", modelPath(from), reason(err))
	}
	if _, err := m.root.Lstat(to); err == nil {
		return "", fmt.Errorf("new_path %s: already exists", modelPath(to))
	}
	if err := m.mkdirs(path.Dir(to)); err != nil {
		return "", err
	}
	if err := os.Rename(m.abs(from), m.abs(to)); err != nil {
		return "", fmt.Errorf("rename %s to %s: %s", modelPath(from), modelPath(to), reason(err))
	}
	return "Renamed " + modelPath(from) + " to " + modelPath(to), nil
}

func (m *MemoryDir) abs(rel string) string { return filepath.Join(m.dir, filepath.FromSlash(rel)) }

// mkdirs makes rel and its parents inside the root.
func (m *MemoryDir) mkdirs(rel string) error {
	if rel == "." {
		return nil
	}
	segs := strings.Split(rel, "/")
	for i := range segs {
		p := path.Join(segs[:i+1]...)
		err := m.root.Mkdir(p, 0o700)
		if err == nil || errors.Is(err, fs.ErrExist) {
			if fi, serr := m.root.Lstat(p); serr == nil && !fi.IsDir() {
				return fmt.Errorf("%s: not a directory", modelPath(p))
			}
			continue
		}
		return fmt.Errorf("%s: %s", modelPath(p), reason(err))
	}
	return nil
}

// write replaces rel's content atomically: a temporary file in the same
// directory, synced, then renamed over rel. The bounds are checked first.
func (m *MemoryDir) write(rel, content string) error {
	if n := int64(len(content)); n > m.limits.MaxFileBytes {
		return fmt.Errorf("%s: %d bytes is over the %d-byte bound of a file", modelPath(rel), n, m.limits.MaxFileBytes)
	}
	old := int64(0)
	if fi, err := m.root.Lstat(rel); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s: is a directory", modelPath(rel))
		}
		old = fi.Size()
	}
	total, err := m.total()
	if err != nil {
		return err
	}
	if after := total - old + int64(len(content)); after > m.limits.MaxTotalBytes {
		return fmt.Errorf("%s: the memory would hold %d bytes, over its %d-byte bound", modelPath(rel), after, m.limits.MaxTotalBytes)
	}
	dir := path.Dir(rel)
	if err := m.mkdirs(dir); err != nil {
		return err
	}
	var r [8]byte
	_, _ = rand.Read(r[:])
	tmp := path.Join(dir, memoryTempPrefix+hex.EncodeToString(r[:]))
	f, err := m.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	_, err = io.WriteString(f, content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(m.abs(tmp), m.abs(rel))
	}
	if err != nil {
		_ = m.root.Remove(tmp)
		return fmt.Errorf("%s: %s", modelPath(rel), reason(err))
	}
	return nil
}

// total is the size of every regular file in the directory.
func (m *MemoryDir) total() (int64, error) {
	var n int64
	err := fs.WalkDir(m.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("the memory directory: %s", reason(err))
	}
	return n, nil
}
