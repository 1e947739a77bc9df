package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// vitest reads the counts of a Vitest run from its JSON report (--reporter=json,
// the Jest-compatible format): tests skipped with it.skip or todo count as skipped,
// for want of a reason in the report.
func vitest(file string) (counts, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return counts{}, fmt.Errorf("read Vitest's report: %w", err)
	}
	var r struct {
		NumPassedTests  int `json:"numPassedTests"`
		NumFailedTests  int `json:"numFailedTests"`
		NumPendingTests int `json:"numPendingTests"`
		NumTodoTests    int `json:"numTodoTests"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return counts{}, fmt.Errorf("read Vitest's report %s: %w", file, err)
	}
	c := counts{passed: r.NumPassedTests, failed: r.NumFailedTests}
	for range r.NumPendingTests + r.NumTodoTests {
		c.skip("skipped or todo in the test file")
	}
	return c, nil
}
