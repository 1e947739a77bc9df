// Package portable keeps the rules of the file systems most Obsidian vaults live on,
// Windows' and macOS', as code that runs and is tested on any system, so that a vault
// MemoTree writes on Linux opens as the same notes there, and MemoTree itself behaves
// there as it does here:
//
//   - names that differ only in case are one file on Windows and macOS (SameName,
//     CaseOnly, CaseClashes): a rename that only changes the case of a name renames the
//     file rather than meeting itself as an existing target, and two notes whose paths
//     differ only in case are reported;
//   - Windows' limits on a path: 260 characters (MAX_PATH) for programs without long-path
//     support, reserved device names (CON, NUL, COM1, …), characters it refuses, and
//     names ending in a dot or a space (WindowsProblems, WindowsLength);
//   - a file open in another program cannot be renamed or replaced for a while on
//     Windows (a sharing violation): Rename retries such a rename, then reports it
//     with ErrInUse (the file system is behind the Renamer interface);
//   - Git for Windows keeps core.autocrlf=true in its own system configuration, not in
//     /etc/gitconfig (GitSystemConfigs).
//
// Each rule takes the system it applies to as a parameter where it differs by system,
// so that the Windows and macOS rules are tested on Linux. The package does no I/O of
// its own: what touches files goes through the interfaces its callers pass.
package portable
