// Waiting in unit tests: waitFor for the state a test needs, settled for the other
// half of a check, that something did not happen.
import { vi } from 'vitest'

/** How long waitFor polls before it fails: generous, as tests share busy machines. */
export const WAIT_TIMEOUT_MS = 30_000

/**
 * waitFor calls check (an expectation) until it passes and returns its result, or
 * fails with its last error after WAIT_TIMEOUT_MS. It is vi.waitFor with a deadline
 * meant for a busy machine and a short poll, so it returns as soon as the state holds.
 */
export function waitFor<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: WAIT_TIMEOUT_MS, interval: 5 })
}

/**
 * settled resolves after one turn of the event loop: every promise callback already
 * queued, and those they queue in turn, has run. A test that has waited for the state
 * in which a wrong result could only come from such callbacks (no timer, no I/O) then
 * checks that it did not come. It is not a wait for time.
 */
export function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
