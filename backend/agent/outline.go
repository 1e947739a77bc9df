package agent

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

// DefaultOutlineBytes bounds the compact outline in the system message.
const DefaultOutlineBytes = 3000

// outline returns the <outline> block of the system message: what the agent sees of
// the vault until the canvas replaces it, or "" without an Outline function. It is
// built once per turn and again only after a round that ran a write (staleOutline).
func (a *Agent) outline(ctx context.Context) string {
	if a.Outline == nil {
		return ""
	}
	if a.outlineOK {
		return a.outlineText
	}
	text, err := a.Outline(ctx)
	if err != nil {
		return "\n\n<outline>\n(no outline: " + err.Error() + ")\n</outline>"
	}
	a.outlineText, a.outlineOK = "\n\n<outline>\n"+text+"\n</outline>", true
	return a.outlineText
}

// staleOutline makes the next call rebuild the outline.
func (a *Agent) staleOutline() { a.outlineOK = false }

// maxOutlineNames is the most names a folder's line shows.
const maxOutlineNames = 12

// outlineDir is one folder of the outline: its number of notes and its first names.
type outlineDir struct {
	count int
	names []string
}

// CompactOutline renders note paths (vault-relative, ".md" included; sorted, as the
// graph lists them) as one line per folder — the folder, its number of notes and as
// many of its first names as fit — within maxBytes.
func CompactOutline[S ~string](paths []S, maxBytes int) string {
	byDir := map[string]*outlineDir{}
	var d *outlineDir
	lastDir := "\x00"
	for _, p := range paths {
		dir, file := path.Split(string(p))
		if dir != lastDir { // sorted paths come folder by folder, mostly
			if d = byDir[dir]; d == nil {
				d = &outlineDir{names: make([]string, 0, maxOutlineNames)}
				byDir[dir] = d
			}
			lastDir = dir
		}
		d.count++
		if len(d.names) < maxOutlineNames {
			d.names = append(d.names, strings.TrimSuffix(file, ".md"))
		}
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	head := fmt.Sprintf("%d notes in %d folders; names are vault paths without .md (folder/name)\n", len(paths), len(dirs))
	for _, k := range []int{maxOutlineNames, 6, 3, 1} {
		if out, ok := renderOutline(head, dirs, byDir, k, maxBytes); ok {
			return out
		}
	}
	out, _ := renderOutline(head, dirs, byDir, 0, maxBytes)
	return out
}

// renderOutline writes one line per folder with at most k names. With k > 0 it gives
// up (ok false) once maxBytes would be passed; with k = 0 it stops there with a count
// of the folders left.
func renderOutline(head string, dirs []string, byDir map[string]*outlineDir, k, maxBytes int) (string, bool) {
	var b strings.Builder
	b.WriteString(head)
	for i, d := range dirs {
		info := byDir[d]
		label := d
		if label == "" {
			label = "(top level)/"
		}
		line := label + " (" + strconv.Itoa(info.count) + ")"
		if k > 0 {
			shown := info.names[:min(k, len(info.names))]
			line += ": " + strings.Join(shown, ", ")
			if info.count > len(shown) {
				line += ", …"
			}
		}
		if b.Len()+len(line)+1 > maxBytes-40 {
			if k > 0 {
				return "", false
			}
			fmt.Fprintf(&b, "… and %d more folders", len(dirs)-i)
			break
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n"), true
}
