//go:build !unix

package search

// noFollow: links are not refused at open on this system.
const noFollow = 0
