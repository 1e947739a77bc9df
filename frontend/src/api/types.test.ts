import { expect, test } from 'vitest'
import shapes from './shapes.gen.json'
import typesSource from './types.ts?raw'
import gitSource from './gitTypes.ts?raw'
import conflictSource from './conflictTypes.ts?raw'
import eventsSource from './events.ts?raw'

// shapes.gen.json is written by the Go test TestTypeScriptShapes (backend/uiapi): the
// JSON field names of every struct the API takes or returns and of every event payload,
// by Go type. The interfaces here are written by hand; this test keeps them in step.

/** Go types whose TypeScript interface has another name. */
const aliases: Record<string, string> = {
  'agent.Record': 'ChatRecord',
  'agent.RecordCall': 'ChatRecordCall',
  'agent.SessionInfo': 'ChatSessionInfo',
  'llm.Check': 'ChatCheck',
  'llm.Found': 'LocalServer',
  'event.TaskProgressEvent': 'TaskProgress',
  'uiapi.Forces': 'GraphForces',
  'uiapi.GraphView': 'GraphViewSettings',
  'canvas.Settings': 'CanvasSettings',
  'settings.Look': 'LookSettings',
  'settings.Person': 'PersonSettings',
  'autosync.Settings': 'BackupSettings',
  'autosync.State': 'BackupState',
}

/** Go types written inline in another interface rather than as one of their own. */
const inline: Record<string, string> = {
  'uiapi.ChatLiveEvent': 'ChatLiveView.events',
  'uiapi.EdgeBefore': 'NoteBefore.edges',
}

interface Field {
  name: string
  optional: boolean
}

/** The exported interfaces of a TypeScript source, with their fields. */
function interfaces(source: string): Map<string, Field[]> {
  const out = new Map<string, Field[]>()
  for (const m of source.matchAll(/^export interface (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const [, name = '', body = ''] = m
    const fields = [...body.matchAll(/^ {2}(\w+)(\??):/gm)].map((f) => ({ name: f[1] ?? '', optional: f[2] === '?' }))
    out.set(name, fields)
  }
  return out
}

const ts = new Map([...interfaces(typesSource), ...interfaces(gitSource), ...interfaces(conflictSource), ...interfaces(eventsSource)])
const goShapes = shapes as Record<string, { name: string; optional?: boolean }[]>

test('every Go type of the API has a TypeScript interface with the same fields', () => {
  expect(Object.keys(goShapes).length).toBeGreaterThan(40)
  const problems: string[] = []
  for (const [goName, goFields] of Object.entries(goShapes)) {
    if (goName in inline) continue
    const tsName = aliases[goName] ?? goName.split('.')[1] ?? goName
    const fields = ts.get(tsName)
    if (!fields) {
      problems.push(`${goName}: no interface ${tsName} in src/api`)
      continue
    }
    const have = new Map(fields.map((f) => [f.name, f]))
    const want = new Set(goFields.map((f) => f.name))
    for (const f of goFields) {
      const t = have.get(f.name)
      if (!t) problems.push(`${tsName} lacks ${f.name} (Go ${goName})`)
      else if (f.optional && !t.optional) problems.push(`${tsName}.${f.name} may be left out (omitempty in ${goName}): mark it optional`)
    }
    for (const f of fields) {
      if (!want.has(f.name)) problems.push(`${tsName}.${f.name} is not sent by Go (${goName})`)
    }
  }
  expect(problems).toEqual([])
})

test('the aliases name interfaces that exist', () => {
  for (const [goName, tsName] of Object.entries(aliases)) {
    expect(goName in goShapes, `${goName} is no longer part of the API`).toBe(true)
    expect(ts.has(tsName), `no interface ${tsName}`).toBe(true)
  }
})
