// Error text of a failed call, shared by the HTTP transport and the graph worker.

/** errorMessage extracts {"error": "..."} from a failed response. */
export function errorMessage(method: string, status: number, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body)
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const msg = (parsed as { error: unknown }).error
      if (typeof msg === 'string' && msg !== '') return msg
    }
  } catch {
    // not JSON: fall through
  }
  const text = body.trim()
  return text !== '' ? text : `${method}: HTTP ${status}`
}
