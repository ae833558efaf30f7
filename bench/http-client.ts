/** The load driver: keep-alive GETs at a fixed concurrency, each body read in full. */
import { Agent, request } from 'node:http'

export interface Client {
  get(path: string): Promise<{ status: number; body: Buffer }>
  /** Requests sent again because the server closed an idle keep-alive socket as it was reused. */
  readonly retries: number
  close(): void
}

export function createClient(baseUrl: string, headers: Record<string, string>, concurrency: number): Client {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency })
  const { hostname, port } = new URL(baseUrl)
  let retries = 0
  const get = (path: string, mayRetry: boolean): Promise<{ status: number; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const req = request({ agent, hostname, port, path, method: 'GET', headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
        res.on('error', reject)
      })
      req.setTimeout(10_000, () => req.destroy(new Error(`timeout on ${path}`)))
      req.on('error', (error: NodeJS.ErrnoException) => {
        // The keep-alive race (the server's idle timeout fired as the socket was reused): the
        // request never reached the server, so a GET is sent once more on a fresh socket.
        if (mayRetry && req.reusedSocket && error.code === 'ECONNRESET') {
          retries++
          resolve(get(path, false))
        } else reject(error)
      })
      req.end()
    })
  return {
    get: (path) => get(path, true),
    get retries() {
      return retries
    },
    close: () => agent.destroy(),
  }
}

export interface RoundResult {
  pages: number
  ms: number
}

/**
 * Requests `paths` in order with `concurrency` requests in flight. Every answer must be a 200 with
 * the expected body: compared byte for byte when `exact`, else by length (cheap, for timed rounds).
 */
export async function runRound(client: Client, paths: readonly string[], expected: ReadonlyMap<string, Buffer>, concurrency: number, exact = false): Promise<RoundResult> {
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!
      const { status, body } = await client.get(path)
      const want = expected.get(path)!
      if (status !== 200 || (exact ? !body.equals(want) : body.length !== want.length)) {
        throw new Error(`${path}: status ${status}, ${body.length} bytes, expected ${want.length} bytes${exact ? ' (byte-compared)' : ''}`)
      }
    }
  }
  const t0 = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { pages: paths.length, ms: performance.now() - t0 }
}
