package llm

import (
	"strings"
	"testing"
)

// split feeds parts to a splitter and returns the answer and reasoning as the
// functions received them and as the splitter holds them at the end.
func split(parts []string, calls bool) (answer, reasoning, gotAnswer, gotReasoning string) {
	var a, r strings.Builder
	t := thinking{onAnswer: func(s string) { a.WriteString(s) }, onReasoning: func(s string) { r.WriteString(s) }}
	for _, p := range parts {
		t.write(p)
	}
	t.end(calls)
	return a.String(), r.String(), t.Answer(), t.Reasoning()
}

func TestThinking(t *testing.T) {
	tests := []struct {
		name                 string
		parts                []string
		calls                bool
		answer, reasoning    string
		streamed, streamedRe string // what the functions got, when it differs ("-": nothing)
	}{
		{"no tags", []string{"Hello", ", world"}, false, "Hello, world", "", "", ""},
		{"tags split anywhere", []string{"<thi", "nk>Let me th", "ink.</th", "ink>\n\nThe ans", "wer."}, false, "The answer.", "Let me think.", "", ""},
		{"white space before the tag", []string{"\n  <think>r</think>a"}, false, "a", "r", "", ""},
		{"one byte at a time", strings.Split("<think>x < y</think>ok", ""), false, "ok", "x < y", "", ""},
		{"a tag later is the answer's", []string{"Use <think> to show reasoning."}, false, "Use <think> to show reasoning.", "", "", ""},
		{"almost a tag", []string{"<thin", "g>"}, false, "<thing>", "", "", ""},
		{"only the start of a tag", []string{"<th"}, false, "<th", "", "", ""},
		{"never closed: the reasoning is the answer", []string{"<think>All I have to say."}, false, "All I have to say.", "", "All I have to say.", "All I have to say."},
		{"never closed, with tool calls: reasoning", []string{"<think>I will call a tool"}, true, "", "I will call a tool", "", ""},
		{"a close tag no one opened", []string{"reasoning here</think>\n\nAnswer."}, false, "Answer.", "reasoning here", "reasoning here</think>\n\nAnswer.", "-"},
		{"an empty think", []string{"<think></think>Hi"}, false, "Hi", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			streamed, streamedRe, answer, reasoning := split(tt.parts, tt.calls)
			if answer != tt.answer || reasoning != tt.reasoning {
				t.Errorf("answer %q reasoning %q, want %q and %q", answer, reasoning, tt.answer, tt.reasoning)
			}
			wantStreamed, wantRe := tt.streamed, tt.streamedRe
			if wantStreamed == "" {
				wantStreamed = tt.answer
			}
			switch wantRe {
			case "":
				wantRe = tt.reasoning
			case "-":
				wantRe = ""
			}
			if streamed != wantStreamed || strings.TrimSpace(streamedRe) != wantRe {
				t.Errorf("streamed answer %q reasoning %q, want %q and %q", streamed, streamedRe, wantStreamed, wantRe)
			}
		})
	}
}

// FuzzThinkingSplits checks that however a reply is cut into deltas, the answer and
// the reasoning come out the same as from the reply in one piece, and that nothing is
// lost: every byte outside the tags is in one or the other.
func FuzzThinkingSplits(f *testing.F) {
	f.Add("<think>a</think>b", uint8(3))
	f.Add("  <think>x</thi", uint8(1))
	f.Add("plain </think> text", uint8(5))
	f.Fuzz(func(t *testing.T, reply string, cut uint8) {
		_, _, wholeA, wholeR := split([]string{reply}, false)
		var parts []string
		step := int(cut%7) + 1
		for i := 0; i < len(reply); i += step {
			parts = append(parts, reply[i:min(i+step, len(reply))])
		}
		_, _, a, r := split(parts, false)
		if a != wholeA || r != wholeR {
			t.Fatalf("%q cut every %d: answer %q reasoning %q, whole %q %q", reply, step, a, r, wholeA, wholeR)
		}
		kept := strings.NewReplacer(" ", "", "\n", "", "\t", "", "\r", "").Replace(a + r)
		want := strings.NewReplacer(thinkOpen, "", thinkClose, "", " ", "", "\n", "", "\t", "", "\r", "").Replace(reply)
		if len(kept) < len(want)-len(thinkOpen) && !strings.Contains(reply, thinkClose) {
			t.Fatalf("%q: text lost: answer %q reasoning %q", reply, a, r)
		}
	})
}
