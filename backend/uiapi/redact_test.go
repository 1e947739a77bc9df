package uiapi

import (
	"strings"
	"testing"
)

// TestRedactURL: a remote's address reaches the window without the secret written into
// it — a password, or an access token given as the user name (which GitHub and
// GitLab accept) — and an address without one is shown as it is.
func TestRedactURL(t *testing.T) {
	for raw, secret := range map[string]string{
		"https://me:s3cret-pass@git.example/me/notes.git":        "s3cret-pass",
		"https://ghp_A1b2C3d4E5f6G7h8@github.com/me/notes.git":   "ghp_A1b2C3d4E5f6G7h8",
		"http://oauth2:glpat-XYZ123@127.0.0.1:8080/me/notes.git": "glpat-XYZ123",
	} {
		got := redactURL(raw)
		if strings.Contains(got, secret) || !strings.Contains(got, "REDACTED@") || !strings.Contains(got, "/me/notes.git") {
			t.Errorf("redactURL(%q) = %q, shows the secret or lost the address", raw, got)
		}
	}
	for _, plain := range []string{"https://github.com/me/notes.git", "git@github.com:me/notes.git", "ssh://git@host/me/notes.git", "/srv/git/notes.git"} {
		if got := redactURL(plain); got != plain {
			t.Errorf("redactURL(%q) = %q, want it as it is", plain, got)
		}
	}
}
