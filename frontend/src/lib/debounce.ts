/** A debounced function, with a way to drop what is pending. */
export interface Debounced<A extends unknown[]> {
  (...args: A): void
  cancel(): void
}

/** debounce calls fn once, `ms` after the last of a burst of calls, with its arguments. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const d = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      fn(...args)
    }, ms)
  }
  d.cancel = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }
  return d
}
