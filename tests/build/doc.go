// Package build tests the repository's build files as a newcomer meets them: the
// Makefile's checks of what is installed, and that the version the Windows and Linux
// packages carry is the program's.
package build
