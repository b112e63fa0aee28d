//go:build !race

package mms_test

// resultsMemoryBodySize is the size of the results body
// TestBatchResultsMemoryFlat reads: 200 MB, about 2 s.
const resultsMemoryBodySize = 200 << 20

// raceEnabled: see batches_results_race_test.go.
const raceEnabled = false
