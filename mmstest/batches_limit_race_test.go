//go:build race

package mmstest

// raceDetector skips the tests that move hundreds of MiB: the race detector
// slows JSON validation twenty-fold.
const raceDetector = true
