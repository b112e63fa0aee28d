//go:build race

package mms_test

// resultsMemoryBodySize is the size of the results body
// TestBatchResultsMemoryFlat reads under the race detector, which slows
// JSON validation and decoding twenty-fold (to 5-10 MB/s): 200 MB would
// take close to a minute. 48 MB, 1.5 times the 32 MB bound, still proves
// flatness: a reader that kept the lines, or the decoded results, would
// grow the heap by more than the body's size.
const resultsMemoryBodySize = 48 << 20

// raceEnabled tells tests whose size the race detector would make too slow
// that it is on; .ci/run runs them in a pass without it.
const raceEnabled = true
