// The official MCP TypeScript client against `memotree mcp` over stdio, under the
// default permission (propose): a delete waits for the person, whom the client asks
// through MCP elicitation. Accepted, the note goes; declined, it stays; a client
// without elicitation (and no MemoTree window open) gets approval_required and how to
// allow it. usage: node elicit.mjs MEMOTREE_BINARY VAULT_DIR
import fs from 'node:fs'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const [bin, vault] = process.argv.slice(2)
const fail = (msg) => {
  console.error(`mcp elicitation: ${msg}`)
  process.exit(1)
}

async function connect(answer) {
  const client = new Client({ name: 'TS Elicit Client', version: '1.0.0' }, { capabilities: answer ? { elicitation: { form: {} } } : {} })
  const asked = []
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message)
      if (!req.params.requestedSchema?.properties?.approve) fail(`the elicitation asks no approve field: ${JSON.stringify(req.params)}`)
      return answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }
    })
  }
  await client.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--library', `demo=${vault}`], stderr: 'ignore' }))
  return { client, asked }
}

async function deleteNote(client, name) {
  const res = await client.callTool({ name: 'delete_entities', arguments: { entity_names: [name] } })
  return res.structuredContent
}

const exists = (name) => fs.existsSync(path.join(vault, `${name}.md`))

for (const [answer, note] of [[null, 'Welcome'], ['decline', 'Welcome'], ['accept', 'Welcome']]) {
  const { client, asked } = await connect(answer)
  const res = await deleteNote(client, note)
  await client.close()
  if (answer === 'accept') {
    if (res.status !== 'success' || exists(note)) fail(`accepted, the delete did not run: ${JSON.stringify(res)}`)
    if (asked.length !== 1 || !asked[0].includes('delete_entities') || !asked[0].includes('TS Elicit Client')) fail(`the person was asked ${JSON.stringify(asked)}`)
    console.log('mcp: an accepted elicitation runs the delete')
  } else if (answer === 'decline') {
    if (res.error_code !== 'approval_required' || !/declined/.test(res.message) || !exists(note)) fail(`declined: ${JSON.stringify(res)}`)
    console.log('mcp: a declined elicitation keeps the note')
  } else {
    if (res.error_code !== 'approval_required' || !res.message.includes('--permission demo=write') || !exists(note)) fail(`no elicitation: ${JSON.stringify(res)}`)
    console.log('mcp: a client without elicitation is refused, told how to allow it')
  }
}
