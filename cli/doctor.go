package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/memotree/memotree/backend/doctor"
	"github.com/memotree/memotree/backend/workspace/face"
)

func runDoctor(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	var ff face.Flags
	ff.RegisterLibraries(fs, "")
	specs := &ff.Libraries
	repair := fs.Bool("repair", false, "remove the temporary files of writes a crash interrupted, set aside undo journals no rollback can use (keeping them and their pre-images in .memotree/recovered/), and forget the list of files a recovery kept")
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
	journals := "no rollback can use them, so the vault refuses writes; run `memotree doctor --repair` to set them aside (the journal and the versions from before the change set are kept in .memotree/recovered/; no note is changed)"
	if repaired {
		journals = "set aside: compare the notes they name with the versions kept there; writes are allowed again"
	}
	section(r.DamagedJournals.Count, "undo journals of crashed change sets that cannot be rolled back", journals, func(out func(string)) {
		for _, d := range r.DamagedJournals.Examples {
			line := fmt.Sprintf("%s (%s): %s", d.Name, d.ChangeSet, d.Reason)
			if len(d.Paths) > 0 {
				line += fmt.Sprintf("; it names %v", d.Paths)
			}
			if d.SetAside != "" {
				line += "; kept in " + d.SetAside
			}
			out(line)
		}
	})
	kept := "review them: a crashed change set (a script) had changed them, and they changed again after the crash, so its rollback kept them as they are; `memotree doctor --repair` forgets this list"
	if repaired {
		kept = "review them (this list is now forgotten)"
	}
	section(r.RecoveryConflicts.Count, "files kept by the rollback of a crashed change set", kept, func(out func(string)) {
		for _, c := range r.RecoveryConflicts.Examples {
			out(fmt.Sprintf("%s (%s, %s)", c.Path, c.ChangeSet, c.Time.Local().Format("2006-01-02 15:04:05")))
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
	if r.Healthy() {
		fmt.Fprintln(w, "  healthy")
	}
}
