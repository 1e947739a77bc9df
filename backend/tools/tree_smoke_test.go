package tools_test

import "testing"

func TestKitSmoke(t *testing.T) {
	dir := kitCopy(t, kitDemo)
	reg := kitOpen(t, dir)
	for _, c := range [][2]string{
		{"list_libraries", `{}`},
		{"get_children", `{"entity_name":"machines"}`},
		{"get_children", `{"entity_name":"/","limit":4}`},
		{"get_parent", `{"entity_name":"Ada Lovelace"}`},
		{"get_ancestors", `{"entity_name":"ENIAC"}`},
		{"get_neighbors", `{"entity_name":"Ada Lovelace","depth":2,"limit":3}`},
		{"get_backlinks", `{"entity_name":"Ada Lovelace","limit":3}`},
		{"find_relations", `{"to_entity":"Analytical Engine"}`},
		{"find_relations", `{"from":"Ada Lovelace","relation_type":"links to","limit":2}`},
		{"garbage_collect_relations", `{}`},
		{"search_in_names", `{"entity_glob":"*engine*"}`},
		{"search_in_contents", `{"content_glob":"*punched card*","max_results":3}`},
		{"search_in_contents", `{"content_glob":"/活字|算盘/"}`},
		{"search_anywhere", `{"pattern_glob":"babbage","limit":2}`},
		{"create_relations", `{"relations":[{"from":"Ada Lovelace","to":"Grace Hopper","type":"inspired"},{"from":"Ada Lovelace","to":"Charles Babbage","type":"collaborator of"},{"from":"Ada Lovelace","to":"Nobody Yet","type":"knows"}]}`},
		{"memory_notebook_replace", `{"old_text":"","new_text":"- They like tests."}`},
		{"memory_notebook_replace", `{"old_text":"They like test","new_text":"x"}`},
		{"memory_notebook_replace", `{"old_text":"They prefer shrt notes","new_text":"x"}`},
	} {
		res := kitCall(t, reg, c[0], c[1])
		res.Elapsed = 0
		t.Logf("%s(%s)\n%s", c[0], c[1], res.YAML())
	}
	t.Log(kitRead(t, dir, "people/Ada Lovelace.md")[:700])
}
