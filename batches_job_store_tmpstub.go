package mms

import (
	"bytes"
	"context"
	"io/fs"
	"iter"
	"sort"
	"strings"
	"sync"
)

type BatchJobStore interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Put(ctx context.Context, key string, value []byte) error
	Append(ctx context.Context, key string, record []byte) error
	Records(ctx context.Context, key string) iter.Seq2[[]byte, error]
	Keys(ctx context.Context, prefix string) ([]string, error)
}

type BatchJobMemoryStore struct {
	mu sync.Mutex
	v  map[string][]byte
}

func NewBatchJobMemoryStore() *BatchJobMemoryStore { return &BatchJobMemoryStore{v: map[string][]byte{}} }
func (m *BatchJobMemoryStore) Get(ctx context.Context, key string) ([]byte, error) {
	m.mu.Lock(); defer m.mu.Unlock()
	b, ok := m.v[key]
	if !ok { return nil, fs.ErrNotExist }
	return bytes.Clone(b), nil
}
func (m *BatchJobMemoryStore) Put(ctx context.Context, key string, value []byte) error {
	m.mu.Lock(); defer m.mu.Unlock(); m.v[key] = bytes.Clone(value); return nil
}
func (m *BatchJobMemoryStore) Append(ctx context.Context, key string, rec []byte) error {
	m.mu.Lock(); defer m.mu.Unlock(); m.v[key] = append(append(m.v[key], rec...), '\n'); return nil
}
func (m *BatchJobMemoryStore) Records(ctx context.Context, key string) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		m.mu.Lock(); b := bytes.Clone(m.v[key]); m.mu.Unlock()
		for _, l := range bytes.Split(b, []byte{'\n'}) { if len(l) > 0 && !yield(l, nil) { return } }
	}
}
func (m *BatchJobMemoryStore) Keys(ctx context.Context, prefix string) ([]string, error) {
	m.mu.Lock(); defer m.mu.Unlock()
	var out []string
	for k := range m.v { if strings.HasPrefix(k, prefix) { out = append(out, k) } }
	sort.Strings(out); return out, nil
}

type BatchJobDir struct{ BatchJobMemoryStore }
func OpenBatchJobDir(path string) (*BatchJobDir, error) { return &BatchJobDir{BatchJobMemoryStore{v: map[string][]byte{}}}, nil }
func (d *BatchJobDir) Close() error { return nil }
