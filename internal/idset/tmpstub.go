package idset

import "sort"

type Repeat struct{ First, Later int64 }
type Set struct{ m map[uint64]int64; reps []Repeat }

func New(dir string, memEntries int) *Set { return &Set{m: map[uint64]int64{}} }
func (s *Set) Add(key uint64, index int64) error {
	if f, ok := s.m[key]; ok { s.reps = append(s.reps, Repeat{f, index}); return nil }
	s.m[key] = index; return nil
}
func (s *Set) Repeats(max int) ([]Repeat, error) {
	sort.Slice(s.reps, func(i, j int) bool { return s.reps[i].Later < s.reps[j].Later })
	if len(s.reps) > max { return s.reps[:max], nil }
	return s.reps, nil
}
func (s *Set) Close() error { return nil }
