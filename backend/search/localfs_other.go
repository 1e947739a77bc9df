//go:build !linux

package search

// watchedLocally is false where vouching is not supported (vouchSupported).
func watchedLocally(string) bool { return false }
