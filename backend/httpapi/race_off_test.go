//go:build !race

package httpapi

// raceDetector is true in a build with the race detector, under which encoding/json
// takes about ten seconds per 64 MB.
const raceDetector = false
