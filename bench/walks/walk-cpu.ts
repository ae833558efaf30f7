/**
 * Section walk-cpu: the client CPU per page of the forward page walk as `market-candles export`
 * runs it (createClient({ apiKey, baseUrl, rateLimit: false, hooks: { onResponse } }) and
 * exchangeOhlcvPages / aggregatedOhlcvPages with the default 8 windows in flight), for two versions
 * of the SDK side by side in one run: the working tree (after) and a commit (before;
 * BENCH_WALK_CPU_BEFORE, default the commit before the walk's CPU was cut), each beside a raw loop
 * of fetch -> text -> JSON.parse over the very same requests, 8 in flight, as bench 6 (c) runs it.
 *
 * Three cases, each side in every round, the order rotating:
 *   exchange over HTTP:  bitstamp BTC/USD 1m from the reference server (dist/cli.js serve
 *                        --no-rate-limit) in a child process;
 *   exchange from memory, aggregated from memory: the same bodies (and omm_vwap_v1 BTC/USD 1m)
 *                        answered from memory by a fetch function (a stand-in Response whose text()
 *                        gives the body), so the SDK's own CPU stands out from the HTTP stack's noise.
 * CPU is this process's (process.cpuUsage, user + system), each walk with a full GC before it and
 * one inside its timing (support/cpu-time.ts), divided by the walk's candle pages.
 */
import { CLI } from '../support/build-cli.js'
import { startChildServer } from '../support/child-server.js'
import { timed } from '../support/cpu-time.js'
import { API_KEY, NOW } from '../support/fixtures.js'
import { loadSdk, type SdkModule } from './sdk-bundle.js'
import { fmt, median, quantile } from '../support/stats.js'
import type { BenchRow } from '../support/table.js'
import { fullPageRange, walkParams } from '../support/walk-range.js'

/** The commit before the cuts of the walk's CPU (2026-11-25). */
const DEFAULT_BEFORE = 'f5b5c8a19bc6230af03d706c33ca70540ab82b8e'
const RANGE = fullPageRange(Date.UTC(2020, 0, 1), 500)
const IN_FLIGHT = 8
const CASES = {
  'exchange, HTTP': { endpoint: 'exchange_ohlcv', source: 'http', rounds: 8 },
  'exchange, memory': { endpoint: 'exchange_ohlcv', source: 'memory', rounds: 16 },
  'aggregated, memory': { endpoint: 'aggregated_ohlcv', source: 'memory', rounds: 10 },
} as const
type CaseName = keyof typeof CASES
type Endpoint = (typeof CASES)[CaseName]['endpoint']
// BENCH_WALK_CPU_CASES=exchange,memory (words of the case names, comma-separated: a case matching
// any of them runs) measures some cases only.
const WANTED = process.env.BENCH_WALK_CPU_CASES?.split(',')
const CASE_NAMES = (Object.keys(CASES) as CaseName[]).filter((name) => WANTED === undefined || WANTED.some((w) => name.includes(w.trim())))
const SIDES = ['raw', 'before', 'after'] as const
type Side = (typeof SIDES)[number]

interface Tally {
  pages: number
  candles: number
  closeSum: number
}

export interface WalkCpu {
  before: string
  after: string
  /** Candle pages per walk, per case. */
  pagesOf: Partial<Record<CaseName, number>>
  /** CPU ms per candle page, per case, per side, one entry per round. */
  perPage: Partial<Record<CaseName, Record<Side, number[]>>>
  pass: boolean
}

const stats = (xs: readonly number[]) => ({ median: median(xs), low: quantile(xs, 0.1), high: quantile(xs, 0.9) })
const perRound = (a: readonly number[], b: readonly number[], f: (x: number, y: number) => number) => a.map((x, i) => f(x, b[i]!))

export async function measureWalkCpu(): Promise<WalkCpu> {
  const beforeRef = process.env.BENCH_WALK_CPU_BEFORE ?? DEFAULT_BEFORE
  const before = await loadSdk(beforeRef)
  const after = await loadSdk(undefined)
  const server = await startChildServer('reference server', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--no-rate-limit', '--now', NOW])
  try {
    // One walk per endpoint through the working tree's SDK records every request and body: the raw
    // loop sends the same candle requests, and the memory cases are answered from them.
    const bodies = new Map<string, string>()
    const candlePaths: Record<Endpoint, string[]> = { exchange_ohlcv: [], aggregated_ohlcv: [] }
    const recording = (async (input: string, init: RequestInit) => {
      const res = await fetch(input, init)
      const text = await res.text()
      if (res.status !== 200) throw new Error(`${input}: ${res.status} ${text.slice(0, 200)}`)
      const path = input.slice(server.url.length)
      bodies.set(path, text)
      for (const endpoint of ['exchange_ohlcv', 'aggregated_ohlcv'] as const) if (path.startsWith(`/v1/${endpoint}?`)) candlePaths[endpoint].push(path)
      return new Response(text, { status: res.status, headers: res.headers })
    }) as typeof fetch
    const references: Partial<Record<Endpoint, Tally>> = {}
    for (const endpoint of new Set(CASE_NAMES.map((name) => CASES[name].endpoint))) {
      const reference = await sdkWalk(after.sdk, endpoint, server.url, recording)
      // Outages of every exchange leave a few minutes out of the aggregated series.
      if (reference.candles < 0.99 * RANGE.candles) throw new Error(`recording walk of ${endpoint}: ${reference.candles} candles, expected about ${RANGE.candles}`)
      references[endpoint] = { ...reference, pages: candlePaths[endpoint].length }
    }

    const MEMORY_URL = 'http://memory.invalid'
    // A stand-in for a Response with what the client reads of a 200 (status, ok, headers, text()):
    // a real Response would add the cost of its body stream, the same on both sides, to the noise.
    const headers = new Headers({ 'content-type': 'application/json' })
    const fromMemory = (async (input: string) => {
      const body = bodies.get(input.slice(MEMORY_URL.length))
      if (body === undefined) throw new Error(`not recorded: ${input}`)
      return { status: 200, ok: true, headers, url: input, text: () => Promise.resolve(body) }
    }) as unknown as typeof fetch

    const sdks: Record<'before' | 'after', SdkModule> = { before: before.sdk, after: after.sdk }
    const result: WalkCpu = { before: before.label, after: after.label, pagesOf: {}, perPage: {}, pass: true }
    for (const name of CASE_NAMES) {
      const { endpoint, source, rounds } = CASES[name]
      const reference = references[endpoint]!
      const baseUrl = source === 'http' ? server.url : MEMORY_URL
      const run = (side: Side): Promise<Tally> =>
        side === 'raw'
          ? rawWalk(candlePaths[endpoint].map((p) => baseUrl + p), source === 'http' ? fetch : fromMemory)
          : sdkWalk(sdks[side], endpoint, baseUrl, source === 'http' ? undefined : fromMemory)
      const check = (what: string, got: Tally) => {
        // The raw loop adds its pages in the order they arrive: the float sum may differ in its last bits.
        if (got.candles !== reference.candles || Math.abs(got.closeSum - reference.closeSum) > 1e-9 * reference.closeSum || got.pages !== reference.pages) {
          throw new Error(`${name}, ${what}: ${got.pages} pages, ${got.candles} candles (sum of close ${got.closeSum}); the recording walk: ${reference.pages}, ${reference.candles} (${reference.closeSum})`)
        }
      }
      const perPage: Record<Side, number[]> = { raw: [], before: [], after: [] }
      // Warm-up of each side (JIT, keep-alive sockets), checked like the measured walks.
      for (const side of SIDES) check(`${side} (warm-up)`, await run(side))
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? SIDES : [...SIDES].reverse()
        for (let i = 0; i < order.length; i++) {
          const side = order[(i + Math.floor(r / 2)) % order.length]!
          const { value, cpuMs } = await timed(() => run(side))
          check(side, value)
          perPage[side].push(cpuMs / reference.pages)
        }
      }
      result.pagesOf[name] = reference.pages
      result.perPage[name] = perPage
    }
    return result
  } finally {
    await server.stop()
  }
}

/** The export's walk: its client options and the page walk with the default windows in flight. */
async function sdkWalk(sdk: SdkModule, endpoint: Endpoint, baseUrl: string, fetchFn: typeof fetch | undefined): Promise<Tally> {
  let responses = 0
  const client = sdk.createClient({
    apiKey: API_KEY,
    baseUrl,
    rateLimit: false,
    ...(fetchFn ? { fetch: fetchFn } : {}),
    hooks: { onResponse: (e) => void (e.endpoint === endpoint && responses++) },
  })
  const { exchange: _exchange, ...pair } = walkParams(RANGE)
  const walk = endpoint === 'exchange_ohlcv' ? client.exchangeOhlcvPages(walkParams(RANGE)) : client.aggregatedOhlcvPages({ ...pair, method: 'omm_vwap_v1' })
  const tally: Tally = { pages: 0, candles: 0, closeSum: 0 }
  for await (const page of walk) {
    tally.candles += page.candles.length
    for (let i = 0; i < page.candles.length; i++) tally.closeSum += page.candles[i]!.close
  }
  tally.pages = responses
  return tally
}

/** fetch -> text -> JSON.parse over `urls`, `IN_FLIGHT` at once (bench/export/export-child.ts rawRun). */
async function rawWalk(urls: readonly string[], fetchFn: typeof fetch): Promise<Tally> {
  const tally: Tally = { pages: 0, candles: 0, closeSum: 0 }
  let next = 0
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!
      const res = await fetchFn(url, { headers: { 'x-api-key': API_KEY } })
      const text = await res.text()
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
      const rows = JSON.parse(text) as Array<{ close: number }>
      tally.pages++
      tally.candles += rows.length
      for (let i = 0; i < rows.length; i++) tally.closeSum += rows[i]!.close
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  return tally
}

export function reportWalkCpu(r: WalkCpu): string[] {
  const lines = [
    `walk-cpu. Client CPU per page of the export's forward walk (page walk, ${IN_FLIGHT} windows in flight, rateLimit: false, an onResponse hook),`,
    `    ${RANGE.pages} pages of 1000 1m candles (BTC/USD: bitstamp; omm_vwap_v1); SDK before = ${r.before}, after = ${r.after};`,
    `    raw = fetch -> text -> JSON.parse, the same requests, ${IN_FLIGHT} in flight; this process's CPU (user + system) per walk with its own GC, / pages;`,
    `    p10-p90 over rounds; every walk checked to see the same candles`,
  ]
  for (const name of CASE_NAMES) {
    const s = r.perPage[name]
    if (s === undefined) continue
    const line = (side: Side) => {
      const x = stats(s[side])
      return `      ${side.padEnd(6)} ${fmt(x.median, 3)} ms/page (${fmt(x.low, 3)}-${fmt(x.high, 3)})  [${s[side].map((v) => fmt(v, 2)).join(', ')}]`
    }
    const extra = (side: 'before' | 'after') => stats(perRound(s[side], s.raw, (a, b) => a - b))
    const ratio = stats(perRound(s.after, s.before, (a, b) => a / b))
    const eb = extra('before')
    const ea = extra('after')
    lines.push(
      `  ${name}: ${r.pagesOf[name]} pages, ${s.raw.length} rounds`,
      line('raw'),
      line('before'),
      line('after'),
      `      SDK's extra CPU over raw, per page, paired by round: before ${fmt(eb.median, 3)} ms (${fmt(eb.low, 3)}-${fmt(eb.high, 3)}), after ${fmt(ea.median, 3)} ms (${fmt(ea.low, 3)}-${fmt(ea.high, 3)})`,
      `      after / before, paired by round: ${fmt(ratio.median, 3)} (${fmt(ratio.low, 3)}-${fmt(ratio.high, 3)})`,
    )
  }
  return lines
}

export function tableWalkCpu(r: WalkCpu): BenchRow[] {
  return CASE_NAMES.flatMap((name) => {
    const s = r.perPage[name]
    if (s === undefined) return []
    const ratio = stats(perRound(s.after, s.before, (a, b) => a / b))
    const extra = (side: 'before' | 'after') => fmt(median(perRound(s[side], s.raw, (a, b) => a - b)), 2)
    return [
      {
        figure: `export walk CPU per page, ${name}: after/before ${fmt(ratio.median, 2)} (${fmt(ratio.low, 2)}–${fmt(ratio.high, 2)}); SDK's extra over raw ${extra('before')} → ${extra('after')} ms, raw ${fmt(median(s.raw), 2)} ms`,
        goal: '',
        verdict: 'info' as const,
      },
    ]
  })
}
