import { getResponse, type RequestHandler } from 'msw'

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
    if (res.type === 'error') throw new TypeError('fetch failed: the mock answered with a network error')
    return res
  }
}
