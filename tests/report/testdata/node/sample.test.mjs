// A sample for node-reporter.mjs (TestNodeReporter): two skipped suites, a skipped
// and a todo test, nested suites, a failing test, a failing hook and a suite whose
// body throws.
import assert from 'node:assert'
import { before, describe, test } from 'node:test'

describe('skipped suite', { skip: 'the corpus is not at /x' }, () => {
  test('a', () => {})
  test('b', () => {})
})
describe('another skipped suite', { skip: true }, () => {
  test('a', () => {})
})
describe('runs', () => {
  test('one', () => {})
  test('two', { skip: 'later' }, () => {})
  test('three', { todo: true }, () => {})
  describe('inner', () => {
    test('four', () => {})
  })
})
test('fails', () => {
  assert.equal(1, 2)
})
describe('a hook fails', () => {
  before(() => {
    throw new Error('x')
  })
  test('five', () => {})
})
describe('its body throws', () => {
  throw new Error('y')
})
