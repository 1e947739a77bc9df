// A reporter for Node's test runner that writes one summary line for make test's end:
// "e2e: N passed, N failed, N skipped (N: why)". Node's own summary counts neither the
// tests of a skipped suite nor the suite ("skipped 0" when five suites were skipped):
// here a skipped suite counts as one skip, with its reason.
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=PATH/node-reporter.mjs --test-reporter-destination=FILE e2e/
// The suite's name is $REPORT_SUITE ("e2e" when unset).
export default async function* summary(source) {
  let passed = 0
  let failed = 0
  const reasons = new Map()
  const skip = (why) => reasons.set(why, (reasons.get(why) ?? 0) + 1)
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue
    const suite = data.details?.type === 'suite'
    if (data.skip !== undefined && data.skip !== false) {
      const why = typeof data.skip === 'string' && data.skip !== '' ? data.skip : 'no reason given'
      skip(suite ? `suite: ${why}` : why)
    } else if (data.todo !== undefined && data.todo !== false) {
      skip('todo')
    } else if (type === 'test:fail') {
      // A suite fails when a test of it failed, or a hook (which fails its tests too),
      // both counted with the tests; or when its own body throws, and its tests never run.
      if (!suite || data.details?.error?.failureType === 'testCodeFailure') failed++
    } else if (!suite) {
      passed++
    }
  }
  const skipped = [...reasons.values()].reduce((a, b) => a + b, 0)
  let line = `${process.env.REPORT_SUITE || 'e2e'}: ${passed} passed, ${failed} failed`
  if (skipped > 0) {
    const sorted = [...reasons].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    line += `, ${skipped} skipped (${sorted.map(([why, n]) => `${n}: ${why}`).join('; ')})`
  }
  yield line + '\n'
}
