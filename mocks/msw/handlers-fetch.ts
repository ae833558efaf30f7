import { getResponse, type RequestHandler } from 'msw'
import { answer, type AnswerContext } from './answer.js'

/**
 * A `fetch` answered by MSW handlers in this process, without MSW's network interception: no
 * socket, no HTTP/1.1 text, no TLS. A request no handler answers fails like an unreachable host.
 * `handlers` is read on every request, so `server.use(...)` overrides apply.
 */
export function handlersFetch(handlers: () => readonly unknown[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    if (request.signal.aborted) throw request.signal.reason
    const res = await getResponse(handlers() as RequestHandler[], request)
    if (res === undefined) throw new TypeError(`fetch failed: no mock handler answers ${request.method} ${request.url}`)
    // An aborted request rejects with its signal's reason, as a real fetch does (a hang fault ends so).
    if (res.type === 'error') throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed: the mock answered with a network error')
    return res
  }
}

/**
 * The handlers' answers straight from the service, for when no override is installed: no handler
 * matching and no copy of the request. `pattern` is the handlers' (`https://host/prefix/*`).
 */
export function directFetch(pattern: string, context: AnswerContext): typeof fetch {
  const root = pattern.slice(0, -1)
  return async (input, init) => {
    const request = new Request(input, init)
    if (request.signal.aborted) throw request.signal.reason
    if (!request.url.startsWith(root)) throw new TypeError(`fetch failed: no mock handler answers ${request.method} ${request.url}`)
    const res = await answer(request, context)
    if (res === 'network-error') throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed: the mock answered with a network error')
    return res
  }
}
