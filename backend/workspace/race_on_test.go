//go:build race

package workspace

// raceDetector is true in a build with the race detector, which makes parsing and
// indexing several times slower.
const raceDetector = true
