// Links from a note to the apps beside MemoTree: Obsidian, and the file manager.

/**
 * absolutePath joins a vault's folder and a vault-relative note path (always
 * slash-separated) the way the folder writes its own paths: with backslashes for a
 * Windows folder (C:\Notes), slashes otherwise.
 */
export function absolutePath(vaultDir: string, notePath: string): string {
  const windows = /^[A-Za-z]:\\|^\\\\/.test(vaultDir)
  const sep = windows ? '\\' : '/'
  const dir = vaultDir.replace(/[\\/]+$/, '')
  return dir + sep + (windows ? notePath.replaceAll('/', '\\') : notePath)
}

/**
 * obsidianUrl is the link that opens a file in Obsidian: obsidian://open?path= and
 * the file's absolute path, URL-encoded as Obsidian's documentation writes it (every
 * reserved character, slashes included). Obsidian opens the vault that holds the file.
 */
export function obsidianUrl(absPath: string): string {
  return `obsidian://open?path=${encodeURIComponent(absPath)}`
}
