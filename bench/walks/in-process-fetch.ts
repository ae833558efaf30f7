/**
 * A `fetch` that answers from the reference service in this process (no HTTP, no sockets): the
 * request goes to `service.handle`, its answer comes back as a `Response` with a JSON body.
 *
 * As written (the brief's adapter), a walk over it is one unbroken chain of promises: nothing in it
 * is a macrotask (the service is synchronous inside), so the event loop does not turn for the whole
 * walk: no timer fires, no FinalizationRegistry callback and no V8 memory-reducer task runs. A
 * socket always hands its data over in a macrotask; `yieldToEventLoop` adds one (setImmediate) per
 * request, as a real connection would.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { MockService } from '../../mocks/core/service/service.js'

export function inProcessFetch(service: MockService, options: { yieldToEventLoop?: boolean } = {}): typeof fetch {
  const { yieldToEventLoop = false } = options
  return async (input, init) => {
    const req = new Request(input, init)
    const url = new URL(req.url)
    const r = await service.handle({ method: 'GET', url: url.pathname + url.search, headers: req.headers })
    if (yieldToEventLoop) await nextTurn()
    return new Response(JSON.stringify(r.body), { status: r.status, headers: r.headers })
  }
}
