package vaultgen

import (
	"strconv"
	"strings"
	"time"
)

var (
	zone     = time.FixedZone("", 8*3600)
	baseDate = time.Date(2023, 1, 1, 9, 0, 0, 0, zone)
)

// writer builds one note at a time into buf, which is reused between notes.
type writer struct {
	p    *plan
	o    Options
	lang lang
	r    *rng
	buf  []byte
	s    Summary
	// Pending body links and where in the word stream they go.
	links []string
	pos   []int
	word  int // index of the next body word
}

func (w *writer) str(s ...string) {
	for _, x := range s {
		w.buf = append(w.buf, x...)
	}
}

// target picks a link target for note i: an existing note other than i, or (pct of
// the time) a dangling name. It reports whether the target is dangling.
func (w *writer) target(i, pct int) (name string, dangling bool) {
	n := len(w.p.titles)
	if n == 1 || w.r.chance(pct) {
		return w.lang.dangling + w.capital(w.pick()) + w.lang.sep + w.pick(), true
	}
	j := w.r.intn(n - 1)
	if j >= i {
		j++
	}
	if w.r.chance(10) {
		return w.p.path(j), false
	}
	return w.p.titles[j], false
}

func (w *writer) pick() string { return w.lang.pick(w.r) }

// capital returns a word starting a sentence: capitalised where the language has case.
func (w *writer) capital(s string) string {
	if w.lang.upper {
		return capitalize(s)
	}
	return s
}

// bodyLink returns one body wikilink in a random Obsidian form and counts it.
func (w *writer) bodyLink(i int, inTable bool) string {
	t, dangling := w.target(i, 5)
	w.s.BodyLinks++
	w.s.Links++
	if dangling {
		w.s.Dangling++
	}
	sep := "|"
	if inTable {
		sep = `\|`
		return "[[" + t + sep + w.pick() + "]]"
	}
	switch k := w.r.intn(100); {
	case k < 45:
		return "[[" + t + "]]"
	case k < 65:
		return "[[" + t + sep + w.pick() + w.lang.sep + w.pick() + "]]"
	case k < 78:
		return "[[" + t + "#" + w.lang.overview + "]]"
	case k < 85:
		return "[[" + t + "#" + w.lang.refs + sep + w.pick() + "]]"
	default:
		w.s.Embeds++
		return "![[" + t + "]]"
	}
}

// note builds note i into w.buf and returns its counts.
func (w *writer) note(i int) Summary {
	w.r = newRNG(w.o.Seed, uint64(i))
	if w.o.Shape == ShapeMixed {
		w.lang = mixedLang(w.r)
	}
	w.buf = w.buf[:0]
	w.s = Summary{}
	switch w.o.Shape.base() {
	case ShapeFlow:
		w.flowFrontMatter(i)
	case ShapeChinese:
		w.chineseFrontMatter(i)
	default:
		w.frontMatter(i)
	}
	w.body(i)
	if w.o.Shape == ShapeCRLF {
		w.toCRLF()
	}
	w.s.Bytes = int64(len(w.buf))
	return w.s
}

func (w *writer) frontMatter(i int) {
	r := w.r
	w.str("---\nentity type: ", entityTypes[r.intn(len(entityTypes))], "\n")
	switch r.intn(3) {
	case 0:
	case 1:
		w.str("aliases: []\n")
	default:
		w.str("aliases:\n  - ", capitalize(w.pick()), " ", strconv.Itoa(i), "\n")
	}
	created := baseDate.Add(time.Duration(r.intn(700*24)) * time.Hour)
	modified := created.Add(time.Duration(r.intn(200*24*60)) * time.Minute)
	w.str("date created: ", created.Format(time.RFC3339), "\n")
	w.str("date modified: ", modified.Format(time.RFC3339), "\n")
	if n := r.intn(5); n > 0 {
		w.str("relations:\n")
		for range n {
			t, dangling := w.target(i, 5)
			w.str("  - relation type: ", relationTypes[r.intn(len(relationTypes))], "\n")
			w.str("    relation to: \"[[", t, "]]\"\n")
			w.s.Relations++
			w.s.Links++
			if dangling {
				w.s.Dangling++
				w.s.DanglingRelations++
			}
		}
	}
	w.str("tags: [")
	for k := range r.between(1, 3) {
		if k > 0 {
			w.str(", ")
		}
		root := tagRoots[r.intn(len(tagRoots))]
		if r.chance(50) {
			w.str(root, "/", w.pick())
		} else {
			w.str(root)
		}
	}
	w.str("]\nsummary: ")
	w.sentence(r.between(6, 14), false)
	w.str("\n---\n\n")
}

// sentence writes n words with a capital and a full stop, consuming link positions
// when consume is true.
func (w *writer) sentence(n int, consume bool) {
	for k := range n {
		if k > 0 {
			w.str(w.lang.sep)
		}
		if consume {
			for len(w.pos) > 0 && w.pos[0] <= w.word {
				w.str(w.links[0], w.lang.sep)
				w.links, w.pos = w.links[1:], w.pos[1:]
			}
			w.word++
		}
		if k == 0 {
			w.str(w.capital(w.pick()))
		} else {
			w.str(w.pick())
		}
		w.s.Words++
	}
	w.str(w.lang.stop)
}

func (w *writer) paragraph(n int) int {
	done := 0
	for done < n {
		k := min(n-done, w.r.between(6, 18))
		if done > 0 {
			w.str(w.lang.sep)
		}
		w.sentence(k, true)
		done += k
	}
	w.str("\n\n")
	return done
}

func (w *writer) cjkParagraph(n int) int {
	for k := range n {
		w.str(cjk[w.r.intn(len(cjk))])
		if k%7 == 6 {
			w.str("，")
		}
	}
	w.str("。\n\n")
	w.s.Words += int64(n)
	return n
}

func (w *writer) body(i int) {
	r := w.r
	// Skewed towards short notes, as in real vaults: the minimum of two uniform draws.
	span := w.o.MaxWords - w.o.MinWords + 1
	total := w.o.MinWords + min(r.intn(span), r.intn(span))
	nl := r.between(3, 15)
	if w.o.Shape == ShapeLong {
		nl = r.between(1, 2)
	}
	w.links, w.pos = w.links[:0], w.pos[:0]
	w.word = 0
	table := nl >= 5 && r.chance(15)
	if table {
		nl -= 2
	}
	for range nl {
		w.links = append(w.links, w.bodyLink(i, false))
		p := r.intn(total)
		k := len(w.pos)
		w.pos = append(w.pos, p)
		for k > 0 && w.pos[k-1] > p {
			w.pos[k], w.pos[k-1] = w.pos[k-1], p
			k--
		}
	}
	cjkNote := r.chance(10) || w.o.Shape == ShapeChinese
	if cjkNote {
		w.s.CJKNotes++
	}
	code, inline := r.chance(25), r.chance(15)
	mdLink, external := r.chance(30), r.chance(30)

	w.str("# ", w.p.titles[i], "\n\n")
	left := total
	left -= w.paragraph(min(left, r.between(30, 80)))
	w.str("## ", w.lang.overview, "\n\n")
	section := 0
	for left > 0 {
		switch k := r.intn(100); {
		case section > 250:
			w.str("## ", w.capital(w.pick()), w.lang.sep, w.pick(), "\n\n")
			section = 0
		case k < 15:
			items := r.between(3, 6)
			for range items {
				w.str("- ")
				if w.o.Shape == ShapeFlow && r.chance(30) {
					w.str(logDate(r.intn(2000)), ": ")
				}
				n := min(left, r.between(4, 12))
				w.sentence(n, true)
				w.str("\n")
				left -= n
				section += n
				if left == 0 {
					break
				}
			}
			w.str("\n")
		case k < 25 && cjkNote:
			n := min(left, r.between(20, 60))
			left -= w.cjkParagraph(n)
			section += n
		case k < 30 && code:
			code = false
			lang := codeLangs[r.intn(len(codeLangs))]
			j := r.intn(len(w.p.titles))
			w.str("```", lang, "\n// see [[", w.p.titles[j], "]]\nvalue = \"[[not a link]]\"\n```\n\n")
			w.s.FakeLinks += 2
		case k < 35 && table:
			table = false
			w.str("| note | ", w.pick(), " |\n| --- | --- |\n")
			for range 2 {
				w.str("| ", w.bodyLink(i, true), " | ", w.pick(), " ", w.pick(), " |\n")
			}
			w.str("\n")
		case k < 40 && inline:
			inline = false
			w.str("Write `[[", w.p.titles[r.intn(len(w.p.titles))], "]]` to link a note. ")
			w.s.FakeLinks++
			n := w.paragraph(min(left, r.between(10, 40)))
			left -= n
			section += n
		case k < 45 && mdLink:
			mdLink = false
			j := r.intn(len(w.p.titles))
			w.str("See [", w.pick(), "](", strings.ReplaceAll(w.p.path(j), " ", "%20"), ".md) for ", w.pick(), ". ")
			w.s.MarkdownLinks++
			n := w.paragraph(min(left, r.between(10, 40)))
			left -= n
			section += n
		case k < 50 && external:
			external = false
			x := w.pick()
			w.str("Source: [", x, "](https://example.org/", x, "). ")
			w.s.ExternalLinks++
			n := w.paragraph(min(left, r.between(10, 40)))
			left -= n
			section += n
		case k >= 85 && w.o.Shape == ShapeCode:
			w.codeBlock()
		default:
			n := w.paragraph(min(left, r.between(40, 120)))
			left -= n
			section += n
		}
	}
	if table {
		w.str("| note | ", w.pick(), " |\n| --- | --- |\n")
		for range 2 {
			w.str("| ", w.bodyLink(i, true), " | ", w.pick(), " |\n")
		}
		w.str("\n")
	}
	if w.o.Shape == ShapeHub && i == 0 {
		w.hubLinks(i)
	}
	w.str("## ", w.lang.refs, "\n\n")
	for _, l := range w.links {
		w.str("- ", l, "\n")
	}
	if len(w.links) == 0 {
		w.str("- #", tagRoots[r.intn(len(tagRoots))], "/", w.pick(), "\n")
	}
	w.links, w.pos = w.links[:0], w.pos[:0]
}
