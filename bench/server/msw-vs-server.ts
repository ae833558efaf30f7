/**
 * Measurement: the SDK paging through the reference service behind MSW (setupServer, as a test
 * suite runs it) against the same service behind the node:http server, in this one process.
 * Both sides send the same requests through one client (validation on, limiter off) to one
 * service (rate limit off); their rounds alternate, so drift hits both alike. The MSW handlers as
 * they were before (HttpResponse.json) run too, as a reference.
 */
import { HttpResponse, http, type JsonBodyType } from 'msw'
import { setupServer } from 'msw/node'
import { createMockService, type MockService } from '../../mocks/core/service/service.js'
import { createHandlers, handlersContext } from '../../mocks/msw/handlers.js'
import { directFetch } from '../../mocks/msw/handlers-fetch.js'
import { startMockServer } from '../../mocks/server/http-server.js'
import { createClient } from '../../src/index.js'
import { fullGc, processCpuMs } from '../support/cpu-time.js'
import { API_KEY, MINUTE, NOW, NOW_MS } from '../support/fixtures.js'
import { measureMswCeiling, type MswCeiling } from './msw-ceiling.js'
import { fmt, median, quantile, verdict } from '../support/stats.js'
import { verdictOf, type BenchRow } from '../support/table.js'

const BASE = 'https://api.msw-bench.test'
/** Each round pages this long (and at most MAX_PAGES pages) per side. */
const ROUND_MS = 400
const MAX_PAGES = 2000
const ROUNDS = 9
const LIMITS = [1000, 10] as const

type Side = 'msw' | 'mswFetch' | 'server' | 'mswBefore'
const SIDES: Side[] = ['msw', 'mswFetch', 'server', 'mswBefore']
const LABEL: Record<Side, string> = {
  msw: 'MSW setupServer, global fetch             ',
  mswFetch: 'MSW handlers through mock.fetch           ',
  server: 'node:http server, same process            ',
  mswBefore: 'MSW setupServer, HttpResponse.json (before)',
}

export interface MswVsServerRow {
  limit: number
  pagesPerSecond: Record<Side, number[]>
  /** setupServer (global fetch) / server, per round (the sides of a round ran back to back). */
  ratios: number[]
  /** mock.fetch / server, per round. */
  ratiosFetch: number[]
  pass: boolean
}

export interface MswVsServer {
  limits: MswVsServerRow[]
  /** The interception alone: trivial handlers, plain fetch, no SDK and no service. */
  ceiling: MswCeiling
  /** The lines of the bench's summary table. */
  rows: BenchRow[]
  pass: boolean
}

/** The handler as it was: the service's body through HttpResponse.json. */
function handlersBefore(service: MockService) {
  return [
    http.all(`${BASE}/*`, async ({ request }) => {
      const url = new URL(request.url)
      const res = await service.handle({ method: request.method, url: url.pathname + url.search, headers: request.headers })
      return HttpResponse.json(res.body as JsonBodyType, { status: res.status, headers: res.headers })
    }),
  ]
}

/** Pages through distinct windows (backward, one minute apart) until the round's time is up. */
async function round(baseUrl: string, limit: number, offset: number, fetch?: typeof globalThis.fetch): Promise<number> {
  const client = createClient({ baseUrl, apiKey: API_KEY, rateLimit: false, retry: false, fetch })
  const page = (end: Date) => client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', end, limit })
  // Untimed: the first page after listen() opens the connection (about 10 ms of CPU through MSW),
  // which a test file pays once, not once per round; a round cut short by the machine's load was
  // otherwise mostly that.
  await page(new Date(NOW_MS))
  // Both sides run wholly in this process (client, MSW or server, service): its CPU time is what a
  // page costs, and other processes on the machine do not change it. The heap is collected before
  // (untimed), so a round does not pay for the garbage of the side before it; not again inside the
  // timing, which costs about 0.1 s here (the service's data) and would flatten every ratio.
  fullGc()
  const started = performance.now()
  const cpu = processCpuMs()
  let pages = 0
  while (pages < MAX_PAGES && performance.now() - started < ROUND_MS) {
    const end = new Date(NOW_MS - ((offset + pages) % 5000) * MINUTE)
    const candles = await page(end)
    if (candles.length !== limit) throw new Error(`expected ${limit} candles, got ${candles.length}`)
    pages++
  }
  return pages / ((processCpuMs() - cpu) / 1000)
}

export async function measureMswVsServer(): Promise<MswVsServer> {
  const service = createMockService({ now: NOW, rateLimit: false })
  const msw = setupServer(...createHandlers(service, { baseUrl: BASE }))
  const mswBefore = setupServer(...handlersBefore(service))
  // What setupMockService's fetch does while no override is installed, on the same service.
  const { pattern, context } = handlersContext(service, { baseUrl: BASE })
  const mockFetch = directFetch(pattern, context)
  const server = await startMockServer({ service })
  const run = async (side: Side, limit: number, offset: number): Promise<number> => {
    if (side === 'server') return round(server.url, limit, offset)
    if (side === 'mswFetch') return round(BASE, limit, offset, mockFetch)
    const interceptor = side === 'msw' ? msw : mswBefore
    interceptor.listen({ onUnhandledFrame: 'error' })
    try {
      return await round(BASE, limit, offset)
    } finally {
      interceptor.close()
    }
  }
  try {
    const limits: MswVsServerRow[] = []
    for (const limit of LIMITS) {
      const pagesPerSecond: Record<Side, number[]> = { msw: [], mswFetch: [], server: [], mswBefore: [] }
      for (const side of SIDES) await run(side, limit, 0) // warm-up
      for (let r = 0; r < ROUNDS; r++) {
        // Each round in another order of the three sides.
        const order = r % 2 === 0 ? SIDES : [...SIDES].reverse()
        for (const side of order) pagesPerSecond[side].push(await run(side, limit, r * 97))
      }
      const per = (side: Side) => pagesPerSecond[side].map((x, i) => x / pagesPerSecond.server[i]!)
      const ratiosFetch = per('mswFetch')
      const ratios = per('msw')
      // The goal is on the MSW path users take (setupServer intercepting global fetch); mock.fetch skips MSW.
      limits.push({ limit, pagesPerSecond, ratios, ratiosFetch, pass: verdictOf(median(ratios), quantile(ratios, 0.1), quantile(ratios, 0.9), 1) !== 'not met' })
    }
    // What no handler of ours can beat: MSW's interception against a connection, both trivial.
    const ceiling = await measureMswCeiling()
    const spread = (xs: number[]) => `${fmt(median(xs), 2)}× (${fmt(quantile(xs, 0.1), 2)}–${fmt(quantile(xs, 0.9), 2)})`
    const rows = limits.flatMap((row): BenchRow[] => [
      // msw 3 intercepts global fetch at the socket: HTTP/1.1 text, and TLS for https, both ways.
      { figure: `MSW path (setupServer, global fetch) / in-process server, limit=${row.limit}, pages per CPU second: ${spread(row.ratios)}`, goal: '>= 1×', verdict: verdictOf(median(row.ratios), quantile(row.ratios, 0.1), quantile(row.ratios, 0.9), 1) },
      { figure: `mock.fetch (no MSW interception) / in-process server, limit=${row.limit}: ${spread(row.ratiosFetch)}`, goal: '', verdict: 'info' },
    ])
    const bounds = limits.map((row) => `${fmt(bestRatio(row, ceiling), 2)}× at limit=${row.limit}`).join(', ')
    rows.push({
      figure: `Ceiling: MSW interception alone / node:http server, trivial handlers, plain fetch, requests per CPU second: ${spread(ceiling.ratios)}; ${fmt(ceiling.microsPerRequest.msw, 0)} vs ${fmt(ceiling.microsPerRequest.server, 0)} µs per request, so the MSW path is at best ${bounds}`,
      goal: '',
      verdict: 'info',
    })
    return { limits, ceiling, rows, pass: limits.every((row) => row.pass) }
  } finally {
    await server.close()
  }
}

/**
 * The best the MSW path can do against the server, whatever its handlers: the SDK and the service
 * cost the same on both paths, and a request through MSW's interception costs at least what a
 * trivial one costs more than through the server (medians).
 */
function bestRatio(row: MswVsServerRow, ceiling: MswCeiling): number {
  const serverPageMicros = 1e6 / median(row.pagesPerSecond.server)
  return serverPageMicros / (serverPageMicros + ceiling.microsPerRequest.msw - ceiling.microsPerRequest.server)
}

/** `205 (195-233)`: a rate's median and its p10-p90. */
const rate = (xs: number[]) => `${fmt(median(xs), 0)} (${fmt(quantile(xs, 0.1), 0)}-${fmt(quantile(xs, 0.9), 0)})`
/** `0.61 (p10-p90 0.56-0.71)`: a ratio's median and its p10-p90. */
const ratio = (xs: number[]) => `${fmt(median(xs), 2)} (p10-p90 ${fmt(quantile(xs, 0.1), 2)}-${fmt(quantile(xs, 0.9), 2)})`

export function reportMswVsServer(r: MswVsServer): string[] {
  const lines = ['MSW path vs in-process server (SDK exchangeOhlcv pages, validation on, 1m BTC/USD, rate limits off)']
  for (const row of r.limits) {
    lines.push(`  limit=${row.limit}: pages per CPU second of this process, median (p10-p90) of ${ROUNDS} rounds of ${ROUND_MS} ms`)
    for (const side of SIDES) lines.push(`    ${LABEL[side]} ${rate(row.pagesPerSecond[side])}`)
    const spread = quantile(row.ratios, 0.1) <= 1 && quantile(row.ratios, 0.9) >= 1 ? ', within the spread' : ''
    lines.push(`    setupServer / server, per round = ${ratio(row.ratios)}  (goal >= 1)  ${verdict(row.pass)}${spread}`)
    lines.push(`    mock.fetch / server, per round = ${ratio(row.ratiosFetch)}  (no MSW interception; reported)`)
  }
  const c = r.ceiling
  lines.push(`  ceiling: global fetch with a trivial handler (constant 2-byte body), no SDK, no service; requests per CPU second`)
  lines.push(`    MSW setupServer                            ${rate(c.msw)}  (${fmt(c.microsPerRequest.msw, 0)} µs of CPU per request)`)
  lines.push(`    node:http server, same process             ${rate(c.server)}  (${fmt(c.microsPerRequest.server, 0)} µs of CPU per request)`)
  lines.push(`    MSW / server, per round = ${ratio(c.ratios)}  (reported)`)
  for (const row of r.limits) {
    const serverPage = 1e3 / median(row.pagesPerSecond.server)
    lines.push(`    limit=${row.limit}: a server page ${fmt(serverPage, 2)} ms + MSW's extra ${fmt((c.microsPerRequest.msw - c.microsPerRequest.server) / 1000, 2)} ms: the MSW path at best ${fmt(bestRatio(row, c), 2)}× the server`)
  }
  return lines
}
