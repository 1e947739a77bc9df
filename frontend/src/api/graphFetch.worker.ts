// The graph reader's worker (see graphFetch.ts): fetches and parses the graph, and
// posts it back with its edges' buffer moved to the window.
import { fetchGraph, transferables, type GraphFetchReply, type GraphFetchRequest } from './graphFetch'

self.onmessage = async (ev: MessageEvent<GraphFetchRequest>) => {
  const answer = fetchGraph(fetch, ev.data)
  // The request is out: the window can go on with its long first task.
  const sent: GraphFetchReply = { id: ev.data.id, sent: true }
  ;(self as unknown as Worker).postMessage(sent)
  const reply = await answer
  ;(self as unknown as Worker).postMessage(reply, transferables(reply))
}
