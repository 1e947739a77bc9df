package vaultgen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// rng is a small, fast splitmix64 generator. It is defined here rather than taken from
// math/rand so that a given seed yields the same vault with every Go release.
type rng struct{ s uint64 }

func newRNG(seed int64, stream uint64) *rng {
	r := &rng{s: uint64(seed)*0x9E3779B97F4A7C15 ^ (stream+1)*0xD1B54A32D192ED03}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n must be > 0.
func (r *rng) intn(n int) int { return int((r.next() >> 1) % uint64(n)) }

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance reports true with probability pct/100.
func (r *rng) chance(pct int) bool { return r.intn(100) < pct }

// syllables build the pseudo-word vocabulary. None of them spell "un", so no
// generated word can collide with the "Unwritten" prefix of dangling targets.
var syllables = []string{
	"ka", "lo", "mi", "ter", "vo", "sa", "ri", "den", "pa", "zu", "mor", "el",
	"thi", "an", "bre", "cos", "dra", "fi", "gal", "hes", "ix", "jo", "lum", "nar",
	"ost", "pel", "quo", "ras", "sil", "tor", "vex", "wy",
}

// vocab holds 1,024 pseudo-words built deterministically from syllables.
var vocab = func() []string {
	out := make([]string, 0, 1024)
	seen := map[string]bool{}
	r := &rng{s: 42}
	for len(out) < 1024 {
		n := 1 + r.intn(3)
		var b strings.Builder
		for range n {
			b.WriteString(syllables[r.intn(len(syllables))])
		}
		w := b.String()
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}()

// cjk holds Simplified Chinese phrases for the notes that carry CJK text.
var cjk = []string{
	"知识", "图谱", "笔记", "链接", "关系", "实体", "概念", "历史", "计算", "信息",
	"文本", "索引", "检索", "结构", "目录", "标题", "摘要", "版本", "记忆", "工具",
	"研究", "方法", "数据", "模型", "系统", "网络", "语言", "文字", "编码", "印刷",
	"整理", "分析", "比较", "发现", "问题", "答案", "例子", "总结", "草稿", "参考",
}

var entityTypes = []string{"concept", "person", "project", "book", "place", "meeting", "tool", "event"}

var relationTypes = []string{"related to", "part of", "depends on", "authored by", "influenced by", "located in", "see also", "contrasts with"}

var tagRoots = []string{"bench", "topic", "status", "area", "source"}

var codeLangs = []string{"go", "python", "yaml", "sh", ""}

// capitalize upper-cases the first letter of w.
func capitalize(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	if n == 0 || r == utf8.RuneError {
		return w
	}
	return string(unicode.ToUpper(r)) + w[n:]
}
