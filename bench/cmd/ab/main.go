// Command ab times two or more commands interleaved, round by round, so that a
// machine that slows down or speeds up during a measurement (other jobs, CPU
// frequency, the page cache filling) weighs on every command alike, and the ratio of
// each round is a fair sample:
//
//	ab [-runs 10] [-warmup 2] [-prepare CMD] [-ok-exit 1] -out FILE.json NAME CMD NAME CMD ...
//
// Each command runs through sh -c with its output discarded. A run fails when its
// command exits with a status other than 0 and -ok-exit (a search that finds
// nothing exits 1, as grep and ripgrep do: -ok-exit 1 counts that as an answer). Round r runs the
// commands in order, or in reverse on odd rounds. -prepare runs before every timed
// run (not timed): a cache drop for cold runs. The JSON holds every run's wall time,
// CPU time (user + system, of the command and what it waited for) and peak resident
// memory, and exit status; bench/cmd/table reads it.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// result is one command's runs.
type result struct {
	Name    string    `json:"name"`
	Command string    `json:"command"`
	Wall    []float64 `json:"wall_s"`
	CPU     []float64 `json:"cpu_s"`
	MaxRSS  []int64   `json:"maxrss_kb"`
	Failed  int       `json:"failed"`
}

// export is what ab writes.
type export struct {
	Runs    int      `json:"runs"`
	Warmup  int      `json:"warmup"`
	Prepare string   `json:"prepare,omitempty"`
	Results []result `json:"results"`
	Load    []string `json:"load_average"` // at start and end
}

func main() {
	runs := flag.Int("runs", 10, "timed rounds")
	warmup := flag.Int("warmup", 2, "untimed rounds first")
	prepare := flag.String("prepare", "", "command run (untimed) before every timed run")
	out := flag.String("out", "", "the JSON file to write")
	okExit := flag.Int("ok-exit", 0, "an exit status that is an answer too, not a failure (1: nothing matched)")
	flag.Parse()
	args := flag.Args()
	if *out == "" || len(args) < 4 || len(args)%2 != 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: ab [-runs N] [-warmup N] [-prepare CMD] [-ok-exit N] -out FILE.json NAME CMD NAME CMD ...")
		os.Exit(2)
	}
	e := export{Runs: *runs, Warmup: *warmup, Prepare: *prepare, Load: []string{loadAverage()}}
	for i := 0; i < len(args); i += 2 {
		e.Results = append(e.Results, result{Name: args[i], Command: args[i+1]})
	}
	for round := 0; round < *warmup+*runs; round++ {
		timed := round >= *warmup
		for k := range e.Results {
			i := k
			if round%2 == 1 {
				i = len(e.Results) - 1 - k
			}
			r := &e.Results[i]
			if timed && *prepare != "" {
				if err := sh(*prepare).Run(); err != nil {
					fmt.Fprintf(os.Stderr, "ab: prepare: %v\n", err)
					os.Exit(1)
				}
			}
			wall, cpu, rss, err := run(r.Command)
			if !timed {
				continue
			}
			if failed(err, *okExit) {
				r.Failed++
			}
			r.Wall, r.CPU, r.MaxRSS = append(r.Wall, wall), append(r.CPU, cpu), append(r.MaxRSS, rss)
		}
	}
	e.Load = append(e.Load, loadAverage())
	b, err := json.MarshalIndent(e, "", " ")
	if err == nil {
		err = os.WriteFile(*out, append(b, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ab:", err)
		os.Exit(1)
	}
	for _, r := range e.Results {
		fmt.Fprintf(os.Stderr, "  %-10s median %.3f s (min %.3f, max %.3f), %d failed\n", r.Name, median(r.Wall), minOf(r.Wall), maxOf(r.Wall), r.Failed)
	}
}

func sh(cmd string) *exec.Cmd {
	c := exec.Command("sh", "-c", cmd)
	c.Stdout, c.Stderr = nil, nil // discarded
	return c
}

// run times one command.
func run(cmd string) (wall, cpu float64, maxRSS int64, err error) {
	c := sh(cmd)
	start := time.Now()
	err = c.Run()
	wall = time.Since(start).Seconds()
	if c.ProcessState != nil {
		cpu = (c.ProcessState.UserTime() + c.ProcessState.SystemTime()).Seconds()
		maxRSS = peakRSS(c.ProcessState)
	}
	return wall, cpu, maxRSS, err
}

// failed reports whether a run that ended with err failed: it did unless it exited
// 0 or with the status ok.
func failed(err error, ok int) bool {
	if err == nil {
		return false
	}
	var exit *exec.ExitError
	return !(ok != 0 && errors.As(err, &exit) && exit.ExitCode() == ok)
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil || len(b) < 14 {
		return "unknown"
	}
	return string(b[:14])
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	for i := range s { // insertion sort: a handful of values
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minOf(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
