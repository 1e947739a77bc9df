package tool

import (
	"context"
	"encoding/json"
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzCall sends random arguments to the test tools: a call never panics, always
// answers with a known status, and its YAML and JSON renderings parse.
func FuzzCall(f *testing.F) {
	seeds := []string{
		`{"entity_names":["Ada"]}`, `{"entity_names":"Ada"}`, `{}`, `null`, `[]`, `"x"`, `1`,
		`{"entity_names":[],"relations":[{"from":"a","to":"b","type":"k"}],"props":{"a":"b"},"ratio":1e308}`,
		`{"entity_glob":"*","offset":-1,"limit":1e9,"summary_only":"yes"}`, `{"entity_names":[null]}`,
		`{"count":9223372036854775808,"entity_names":[]}`, `{"mode":"merge","entity_names":["\u0000"]}`, `{"a":`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	r := testRegistry(f)
	names := []string{"echo", "list", "status", "boom", "broken", "refuse", "missing"}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		name := names[int(which)%len(names)]
		res, _ := r.Call(context.Background(), &Call{Actor: ActorAgent}, name, json.RawMessage(args))
		switch res.Status {
		case StatusSuccess, StatusError, StatusPartial:
		default:
			t.Fatalf("%s(%q): status %q", name, args, res.Status)
		}
		if res.Status == StatusError && res.ErrorCode == "" {
			t.Fatalf("%s(%q): error without code: %s", name, args, res.Message)
		}
		var y map[string]any
		if err := yaml.Unmarshal([]byte(res.YAML()), &y); err != nil {
			t.Fatalf("%s(%q): YAML does not parse: %v\n%s", name, args, err, res.YAML())
		}
		if !json.Valid(res.JSON()) {
			t.Fatalf("%s(%q): invalid JSON %s", name, args, res.JSON())
		}
	})
}
