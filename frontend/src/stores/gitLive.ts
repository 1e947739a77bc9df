// Live updates of the git panel: vault:changed and git:changed events, debounced,
// refetch the status of the open library.
import type { Api } from '../api'
import { debounce } from '../lib/debounce'
import type { GitStore } from './git.svelte'

/** How long a burst of events may last before one status refresh. */
export const GIT_LIVE_DEBOUNCE_MS = 150

/** connectGitLive keeps the git store current; returns the unsubscribe. */
export function connectGitLive(api: Api, git: GitStore): () => void {
  let touched = new Set<string>()
  const flush = debounce(() => {
    const libs = touched
    touched = new Set()
    if (libs.has('') || libs.has(git.library)) void git.refresh()
  }, GIT_LIVE_DEBOUNCE_MS)
  const onEvent = (e: { library: string }) => {
    touched.add(e.library ?? '')
    flush()
  }
  const offVault = api.on('vault:changed', onEvent)
  const offGit = api.on('git:changed', onEvent)
  const offProgress = api.on('git:progress', (e) => {
    if (e.library === git.library) git.progressLine(e.text)
  })
  return () => {
    offProgress()
    flush.cancel()
    offVault()
    offGit()
  }
}
