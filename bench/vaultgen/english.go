package vaultgen

import (
	"sort"
	"strings"
)

// english is the vocabulary of the flow shape's prose, most frequent first: ordinary
// English words, with words that start with "qu" and end in "ion" or "ness", and words
// holding "foo" and "bar", at the frequencies that make the benchmark's regular
// expressions match most notes, as they do in real notes. A word listed more than
// once is drawn more often.
var english = strings.Fields(`
the of and to a in is that for it as with was on be by at this from or have an are
not but which they one all their has more been its when can there other into some
than would only also first time new people may these after over most such between
many used two where who what them way well system because each see work could part
any out about made then so like through just even much back three how state during
both under world before since being number high school long group same different
year years order information case point question government without used however
while form example place off might end life within several public around given
family study small course result large area later must power make last second still
water general power thought level important home often against change house light
question children early fact food side large program problem business local left
experience quality history law among become knowledge market whole often show bar
data report interest language value use society economic full development policy
political form theory field model process method research structure research words
quietness notes design quickly simple paper library history question ideas writing
foot common answer across today known social major special building network book
room list process city above kindness darkness happiness awareness quotation open
reason early matter taken along others nature support together evidence health
across community quickness rather term further barely music early food section
council basis period central effect character likely sense common story figure
center field question record source context pattern office table region version
memory link graph index page reading garden river mountain morning evening winter
summer autumn spring harbour bridge street market village window letter sound
colour surface machine engine signal thread stone glass metal paper wood cotton
silver iron timber barrel barn bark sidebar crowbar foolish football foothold
embargo seafood footnote barley barter question qualification questionnaire
quietness quickness quotation quantization business fitness darkness openness
weakness readiness illness awareness emptiness brightness sharpness kindness
station nation motion action function relation position condition education
attention direction election solution production situation tradition opinion
collection population generation connection decision definition operation
discussion expression impression instruction protection reduction selection
foundation translation variation version vision mission fashion passion region
garden bread cheese apple tree leaf branch root flower seed field farm harvest
animal horse bird fish whale wolf fox bear deer rabbit mouse eagle owl swan crow
doctor teacher farmer writer reader painter builder sailor soldier student master
ancient modern simple complex gentle strong bright quiet rapid slow warm cold dark
narrow broad deep shallow heavy light rough smooth sharp sudden steady strange
walk write read build carry draw hold keep lead learn leave lose meet move pay
play reach remain run sell send serve sit speak spend stand stay stop teach tell
turn understand wait watch win wonder wish agree appear arrive begin believe bring
choose consider continue create decide describe develop explain follow happen
include increase introduce involve notice offer prepare produce provide receive
recognise remember report represent require return suggest suppose
`)

// zipf draws ranks 0 … n-1 with probability proportional to 1/(rank+1).
type zipf struct{ cum []float64 }

func newZipf(n int) zipf {
	z := zipf{cum: make([]float64, n)}
	s := 0.0
	for k := range n {
		s += 1 / float64(k+1)
		z.cum[k] = s
	}
	for k := range z.cum {
		z.cum[k] /= s
	}
	return z
}

// draw returns a rank.
func (z zipf) draw(r *rng) int {
	u := float64(r.next()>>11) / (1 << 53)
	return min(sort.SearchFloat64s(z.cum, u), len(z.cum)-1)
}

var englishZipf = newZipf(len(english))

// cjkWords is the vocabulary of the Chinese shape: two-character words.
var cjkWords = func() []string {
	out := append([]string(nil), cjk...)
	out = append(out, strings.Fields(`
天空 大地 山川 河流 城市 乡村 学校 老师 学生 朋友 家庭 社会 经济 政治 文化 艺术
音乐 电影 书籍 报纸 杂志 新闻 科学 技术 工程 医学 健康 运动 旅行 季节 春天 夏天
秋天 冬天 早晨 晚上 时间 空间 世界 国家 人民 历程 传统 现代 未来 过去 经验 知觉
思想 理论 实践 观点 意见 建议 计划 目标 结果 原因 影响 作用 变化 发展 进步 成功
失败 希望 梦想 记录 日记 书信 故事 诗歌 小说 散文 戏剧 绘画 雕塑 建筑 园林 桥梁
道路 港口 车站 机场 市场 商店 银行 医院 公园 广场 博物 图书 档案 资料 文献 作者
读者 编辑 出版 翻译 注释 引用 章节 段落 句子 词语 汉字 拼音 声调 语法 修辞 逻辑
`)...)
	return out
}()

var cjkZipf = newZipf(len(cjkWords))

// flowRelations are the relation types of the flow shape.
var flowRelations = []string{"part of", "depends on", "related to", "see also", "follows", "precedes"}

// logDate formats a day as 2006-01-02 for the flow shape's dated lines.
func logDate(day int) string {
	y, m, d := 2019+day/336, 1+day/28%12, 1+day%28
	return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
}

func pad(v, n int) string {
	s := ""
	for range n {
		s = string(rune('0'+v%10)) + s
		v /= 10
	}
	return s
}
