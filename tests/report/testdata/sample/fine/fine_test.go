package fine

import "testing"

func TestPasses(t *testing.T) {}

func TestSkipsForACorpus(t *testing.T) {
	t.Log("looking for the corpus")
	t.Skip("the shared corpora are absent")
}

func TestAlsoSkipsForACorpus(t *testing.T) { t.Skip("the shared corpora are absent") }

func TestSkipsSilently(t *testing.T) { t.SkipNow() }

func TestParent(t *testing.T) {
	t.Run("a", func(t *testing.T) {})
	t.Run("b", func(t *testing.T) { t.Skip("no display") })
	t.Run("c", func(t *testing.T) {
		t.Run("deep", func(t *testing.T) {})
	})
}

func TestFails(t *testing.T) {
	t.Run("sub", func(t *testing.T) { t.Error("want 1, got 2") })
}
