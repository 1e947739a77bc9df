//go:build !linux

package vaults

import "testing"

// asPlainUser runs f; elsewhere than Linux the test that needs it is skipped for
// the superuser.
func asPlainUser(t *testing.T, f func()) { f() }
