/**
 * The ceiling of the MSW path: global fetch answered by MSW's setupServer against the same fetch
 * answered by a node:http server in this process, both with a trivial handler (a constant 2-byte
 * JSON body with Content-Length). Neither the SDK nor the service runs, so the ratio is what MSW's
 * interception itself costs against a real connection; no handler of ours can do better than it.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { fullGc, processCpuMs } from '../support/cpu-time.js'
import { median } from '../support/stats.js'

const BASE = 'https://api.msw-ceiling.test'
const BODY = new TextEncoder().encode('[]')
const HEADERS = { 'content-type': 'application/json', 'content-length': String(BODY.byteLength) }
/** Each round sends requests this long (and at most MAX_REQUESTS) per side. */
const ROUND_MS = 300
const MAX_REQUESTS = 20_000
const ROUNDS = 9

export interface MswCeiling {
  /** Requests per CPU second of this process, per round. */
  msw: number[]
  server: number[]
  /** MSW / server, per round (the two sides of a round ran back to back). */
  ratios: number[]
  /** CPU microseconds per request, medians. */
  microsPerRequest: { msw: number; server: number }
}

async function round(url: string): Promise<number> {
  // Untimed: the first request after listen() opens the connection (about 10 ms of CPU through
  // MSW), which a test file pays once, not once per round.
  await (await fetch(url)).text()
  // Collected before (untimed): a round does not pay for the garbage of the side before it.
  fullGc()
  const started = performance.now()
  const cpu = processCpuMs()
  let requests = 0
  while (requests < MAX_REQUESTS && performance.now() - started < ROUND_MS) {
    const res = await fetch(url)
    if ((await res.text()) !== '[]') throw new Error(`unexpected body from ${url}`)
    requests++
    // A turn of the event loop, so that undici reuses the connection as it does between the SDK's
    // pages: requests back to back in one turn find MSW's socket still busy, and each opened a new
    // (emulated TLS) connection.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return requests / ((processCpuMs() - cpu) / 1000)
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`))
  })
}

export async function measureMswCeiling(): Promise<MswCeiling> {
  const mock = setupServer(http.get(`${BASE}/ping`, () => new Response(BODY.slice(), { headers: HEADERS })))
  const server = createServer((_req, res) => {
    res.writeHead(200, HEADERS)
    res.end(BODY)
  })
  const serverUrl = await listen(server)
  const sides = {
    msw: async () => {
      mock.listen({ onUnhandledFrame: 'error' })
      try {
        return await round(`${BASE}/ping`)
      } finally {
        mock.close()
      }
    },
    server: () => round(serverUrl),
  }
  try {
    const rates = { msw: [] as number[], server: [] as number[] }
    // Warm-up: MSW's path takes a few rounds to reach its speed (its JavaScript is compiled as it runs).
    for (let i = 0; i < 3; i++) {
      await sides.msw()
      await sides.server()
    }
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (['msw', 'server'] as const) : (['server', 'msw'] as const)
      for (const side of order) rates[side].push(await sides[side]())
    }
    const ratios = rates.msw.map((x, i) => x / rates.server[i]!)
    return { ...rates, ratios, microsPerRequest: { msw: 1e6 / median(rates.msw), server: 1e6 / median(rates.server) } }
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
