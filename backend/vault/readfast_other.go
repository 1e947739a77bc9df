//go:build !linux

package vault

// dirReader has no fast path on this system: every read takes os.Root's path.
type dirReader struct{}

func (v *Vault) openDirReader(string) (*dirReader, error) { return nil, errSlowPath }

func (d *dirReader) close() {}

func (d *dirReader) readAhead([]string) {}

func (d *dirReader) read(string, int64, []byte) ([]byte, bool, error) {
	return nil, false, errSlowPath
}
