package note

import "encoding/json"

// Link and Heading order their fields for size (a note's links were a quarter of the
// heap of a full index), not in the order their JSON has always listed them: these
// give the JSON its old order back, so that what tools and the window print is the
// same.

// linkJSON is Link in its JSON order.
type linkJSON struct {
	Kind          LinkKind `json:"kind"`
	Target        string   `json:"target"`
	Subpath       string   `json:"subpath,omitempty"`
	Display       string   `json:"display,omitempty"`
	Start         int32    `json:"start"`
	End           int32    `json:"end"`
	Line          int32    `json:"line"`
	InFrontMatter bool     `json:"in_front_matter,omitempty"`
	EscapedPipe   bool     `json:"escaped_pipe,omitempty"`
}

// MarshalJSON writes l with its fields in their documented order.
func (l Link) MarshalJSON() ([]byte, error) {
	return json.Marshal(linkJSON{l.Kind, l.Target(), l.Subpath(), l.Display(), l.Start, l.End, l.Line, l.InFrontMatter, l.EscapedPipe})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (l *Link) UnmarshalJSON(b []byte) error {
	var j linkJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*l = Link{Kind: j.Kind, Start: j.Start, End: j.End, Line: j.Line, InFrontMatter: j.InFrontMatter, EscapedPipe: j.EscapedPipe}
	l.SetNames(j.Target, j.Subpath, j.Display)
	return nil
}

// headingJSON is Heading in its JSON order.
type headingJSON struct {
	Level uint8  `json:"level"`
	Text  string `json:"text"`
	Line  int32  `json:"line"`
}

// MarshalJSON writes h with its fields in their documented order.
func (h Heading) MarshalJSON() ([]byte, error) {
	return json.Marshal(headingJSON{h.Level, h.Text, h.Line})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (h *Heading) UnmarshalJSON(b []byte) error {
	var j headingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*h = Heading{Level: j.Level, Text: j.Text, Line: j.Line}
	return nil
}
