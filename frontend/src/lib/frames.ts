// Scheduling around the window's frames.

/**
 * afterNextFrame runs fn in a task after the next frame has been made: the animation
 * frame's callbacks run before that frame's paint, and a task they post runs after
 * it. What the page holds now (a tree's rows, a note just opened) is painted first;
 * fn's work (a big graph's drawing, a second or more in software WebGL) comes after.
 */
export function afterNextFrame(fn: () => void): void {
  // No frames where there is no window (unit tests): the next task.
  if (typeof requestAnimationFrame !== 'function') return void setTimeout(fn)
  requestAnimationFrame(() => setTimeout(fn))
}

/** framePainted resolves after the next frame has been made (see afterNextFrame). */
export function framePainted(): Promise<void> {
  return new Promise((resolve) => afterNextFrame(resolve))
}
