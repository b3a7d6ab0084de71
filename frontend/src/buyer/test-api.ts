// For the portal's page tests: a fetch that answers from a table of paths, and an EventSource the
// test sends events through.
import { vi } from 'vitest'

export interface Call {
  method: string
  path: string
  body: unknown
}

type Answer = { status: number; body?: unknown } | ((call: Call) => { status: number; body?: unknown })

/** Stub fetch: `answers['GET /api/buyer/leads?limit=50']`; an unknown path answers 404. */
export function stubApi(answers: Record<string, Answer>): Call[] {
  const calls: Call[] = []
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    const call = { method: init.method ?? 'GET', path: url, body: init.body ? JSON.parse(String(init.body)) : undefined }
    calls.push(call)
    const found = answers[`${call.method} ${url}`]
    const answer = typeof found === 'function' ? found(call) : found ?? { status: 404, body: {} }
    return new Response(answer.status === 204 ? null : JSON.stringify(answer.body ?? {}), { status: answer.status })
  }))
  return calls
}

export class FakeEventSource {
  static opened: FakeEventSource[] = []
  url: string
  closed = false
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>()

  constructor(url: string) {
    this.url = url
    FakeEventSource.opened.push(this)
  }

  addEventListener(name: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener])
  }

  close() {
    this.closed = true
  }

  send(name: string, data: unknown) {
    for (const listener of this.listeners.get(name) ?? []) listener(new MessageEvent(name, { data: JSON.stringify(data) }))
  }
}
