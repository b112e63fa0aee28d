//go:build !race

package mmstest

// raceDetector: see batches_limit_race_test.go.
const raceDetector = false
