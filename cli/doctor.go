package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/memotree/memotree/backend/doctor"
	"github.com/memotree/memotree/backend/workspace/face"
)

func runDoctor(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	var ff face.Flags
	ff.RegisterLibraries(fs, "")
	specs := &ff.Libraries
	repair := fs.Bool("repair", false, "remove the temporary files of writes a crash interrupted")
	asJSON := fs.Bool("json", false, "print the report as JSON, one object per library")
	limit := fs.Int("limit", 20, "examples listed per kind of problem")
	if code, ok := parseFlags(fs, env, args); !ok {
		return code
	}
	if !requireLibraries(env, "doctor", *specs) {
		return 2
	}
	code := 0
	for _, s := range *specs {
		r, err := doctor.Check(ctx, s.Name, s.Path, doctor.Options{Repair: *repair, Limit: *limit})
		if err != nil {
			return fail(env, "doctor", err)
		}
		if *asJSON {
			if err := json.NewEncoder(env.Stdout).Encode(r); err != nil {
				return fail(env, "doctor", err)
			}
		} else {
			printReport(env.Stdout, r, *repair)
		}
		if !r.Healthy() {
			code = 1
		}
	}
	return code
}

// printReport writes a report for a person: what was found, and what to do.
func printReport(w io.Writer, r *doctor.Report, repaired bool) {
	fmt.Fprintf(w, "%s (%s): %d notes, %d files, %d links\n", r.Library, r.Path, r.Notes, r.Files, r.Links)
	if r.Recovered {
		fmt.Fprintln(w, "  finished a batch of writes that a crash had interrupted")
	}
	section := func(count int, title, advice string, lines func(func(string))) {
		if count == 0 {
			return
		}
		fmt.Fprintf(w, "  %d %s — %s\n", count, title, advice)
		shown := 0
		lines(func(s string) { shown++; fmt.Fprintf(w, "    %s\n", s) })
		if shown < count {
			fmt.Fprintf(w, "    … and %d more (raise --limit)\n", count-shown)
		}
	}
	section(r.OldJournals.Count, "undo journals left by an older MemoTree", "MemoTree no longer uses them: a script that older MemoTree ran was cut short by a crash, and the notes a journal names may hold part of its changes; the journal (one JSON line per note, its earlier content in base64 under \"data\") keeps their earlier versions. Compare, then delete the journal", func(out func(string)) {
		for _, j := range r.OldJournals.Examples {
			out(j)
		}
	})
	section(r.SpecialFiles.Count, "special files (named pipes, devices, sockets)", "MemoTree does not read them; remove them if they are not meant to be there", func(out func(string)) {
		for _, s := range r.SpecialFiles.Examples {
			out(s)
		}
	})
	advice := "run `memotree doctor --repair` to remove them"
	if repaired {
		advice = "removed"
	}
	section(r.TempFiles.Count, "temporary files left by interrupted writes", advice, func(out func(string)) {
		for _, t := range r.TempFiles.Examples {
			out(fmt.Sprintf("%s (%s old)", t.Path, t.Age))
		}
	})
	section(r.BrokenNotes.Count, "notes whose front matter does not parse", "fix the YAML between the --- lines; the notes are indexed without it", func(out func(string)) {
		for _, b := range r.BrokenNotes.Examples {
			out(fmt.Sprintf("%s:%d: %s", b.Path, b.Line, b.Message))
		}
	})
	section(r.JourneyErrors.Count, "unreadable journey lines", "they are skipped; the notes are not affected", func(out func(string)) {
		for _, j := range r.JourneyErrors.Examples {
			out(j)
		}
	})
	section(r.BrokenLinks.Count, "links to notes that do not exist", "create the notes or fix the links", func(out func(string)) {
		for _, b := range r.BrokenLinks.Examples {
			out(fmt.Sprintf("%s:%d → [[%s]] (%s)", b.From, b.Line, b.Target, b.Type))
		}
	})
	section(r.DuplicateNames.Count, "names shared by several notes", "[[Name]] picks one of them; link with a path to choose", func(out func(string)) {
		for _, d := range r.DuplicateNames.Examples {
			out(fmt.Sprintf("%s: %v", d.Name, d.Paths))
		}
	})
	section(r.CaseClashes.Count, "groups of files whose paths differ only in case (warning)", "on Windows and macOS they are one file, and a checkout there keeps only one of them; rename one of them", func(out func(string)) {
		for _, c := range r.CaseClashes.Examples {
			out(fmt.Sprintf("%v", c.Paths))
		}
	})
	section(r.WindowsPaths.Count, "paths Windows cannot hold (warning)", "a checkout on Windows fails or leaves them out; rename them", func(out func(string)) {
		for _, p := range r.WindowsPaths.Examples {
			out(fmt.Sprintf("%s: %s", p.Path, strings.Join(p.Problems, "; ")))
		}
	})
	if r.Healthy() {
		fmt.Fprintln(w, "  healthy")
	}
}
