package search

import "golang.org/x/sys/unix"

// remoteFS are the file systems whose files other machines (or a user-space driver)
// may change: inotify sees only the changes made through this machine's kernel, so a
// watcher there cannot vouch that it saw every change.
var remoteFS = map[uint32]string{
	unix.NFS_SUPER_MAGIC:   "NFS",
	unix.CIFS_SUPER_MAGIC:  "SMB",
	unix.SMB_SUPER_MAGIC:   "SMB",
	unix.SMB2_SUPER_MAGIC:  "SMB",
	unix.FUSE_SUPER_MAGIC:  "FUSE",
	unix.V9FS_MAGIC:        "9p",
	unix.CEPH_SUPER_MAGIC:  "Ceph",
	unix.AFS_SUPER_MAGIC:   "AFS",
	unix.AFS_FS_MAGIC:      "AFS",
	unix.CODA_SUPER_MAGIC:  "Coda",
	unix.OCFS2_SUPER_MAGIC: "OCFS2",
}

// watchedLocally reports whether every change to the files under dir goes through
// this machine's kernel, where the watcher sees it: not on a network or user-space
// file system (nor when it cannot be told).
func watchedLocally(dir string) bool {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return false
	}
	_, remote := remoteFS[uint32(st.Type)]
	return !remote
}
