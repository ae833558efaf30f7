/** The load driver: keep-alive GETs at a fixed concurrency, each body read in full. */
import { Agent, request } from 'node:http'

export interface Client {
  get(path: string): Promise<{ status: number; body: Buffer }>
  close(): void
}

export function createClient(baseUrl: string, headers: Record<string, string>, concurrency: number): Client {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency })
  const { hostname, port } = new URL(baseUrl)
  return {
    get: (path) =>
      new Promise((resolve, reject) => {
        const req = request({ agent, hostname, port, path, method: 'GET', headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
          res.on('error', reject)
        })
        req.setTimeout(10_000, () => req.destroy(new Error(`timeout on ${path}`)))
        req.on('error', reject)
        req.end()
      }),
    close: () => agent.destroy(),
  }
}

export interface RoundResult {
  pages: number
  ms: number
  bytes: number
}

/**
 * Requests `count` pages, cycling through `paths`, with `concurrency` requests in flight. Every
 * answer must be a 200 whose body has the expected length.
 */
export async function runRound(client: Client, paths: readonly string[], expected: ReadonlyMap<string, Buffer>, count: number, concurrency: number): Promise<RoundResult> {
  let next = 0
  let bytes = 0
  const worker = async () => {
    while (next < count) {
      const path = paths[next++ % paths.length]!
      const { status, body } = await client.get(path)
      if (status !== 200 || body.length !== expected.get(path)!.length) {
        throw new Error(`${path}: status ${status}, ${body.length} bytes (expected ${expected.get(path)!.length})`)
      }
      bytes += body.length
    }
  }
  const t0 = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { pages: count, ms: performance.now() - t0, bytes }
}
