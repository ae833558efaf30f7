/** The baseline: a plain node:http server answering known URLs with bytes held in memory. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Idle keep-alive sockets stay open this long. Longer than any round of the other server, so a
 * socket is never closed by the server just as the client reuses it (ECONNRESET).
 */
export const KEEP_ALIVE_MS = 60_000

export interface RawServer {
  readonly url: string
  close(): Promise<void>
}

export async function startRawServer(pages: ReadonlyMap<string, Buffer>): Promise<RawServer> {
  const server = createServer((req, res) => {
    req.resume()
    const body = pages.get(req.url ?? '')
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"detail":"Not Found"}')
      return
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
    res.end(body)
  })
  server.keepAliveTimeout = KEEP_ALIVE_MS
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}
