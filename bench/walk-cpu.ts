/**
 * Section walk-cpu: the client CPU per page of the forward page walk as `market-candles export`
 * runs it (createClient({ apiKey, baseUrl, rateLimit: false, hooks: { onResponse } }) and
 * exchangeOhlcvPages with the default 8 windows in flight), for two versions of the SDK side by
 * side in one run: the working tree (after) and a commit (before; BENCH_WALK_CPU_BEFORE, default
 * the commit before the walk's CPU was cut), each beside a raw loop of fetch -> text -> JSON.parse
 * over the very same requests, 8 in flight, as bench 6 (c) runs it.
 *
 * Two sources of pages, each in every round, the order rotating:
 *   http:   the reference server (dist/cli.js serve --no-rate-limit) in a child process;
 *   memory: the same bodies answered by a fetch function from memory (a new Response per request),
 *           so the SDK's own CPU stands out from the HTTP stack's, with less noise.
 * CPU is this process's (process.cpuUsage, user + system), each walk with a full GC before it and
 * one inside its timing (cpu-time.ts), divided by the walk's candle pages.
 */
import { CLI } from './build-cli.js'
import { startChildServer } from './child-server.js'
import { timed } from './cpu-time.js'
import { API_KEY, NOW } from './fixtures.js'
import { loadSdk, type SdkModule } from './sdk-bundle.js'
import { fmt, median, quantile } from './stats.js'
import type { BenchRow } from './table.js'
import { fullPageRange, walkParams } from './walk-range.js'

/** The commit before the cuts of the walk's CPU (2026-11-25). */
const DEFAULT_BEFORE = 'f5b5c8a19bc6230af03d706c33ca70540ab82b8e'
const RANGE = fullPageRange(Date.UTC(2020, 0, 1), 500)
const IN_FLIGHT = 8
const ROUNDS = { http: 6, memory: 8 }
// BENCH_WALK_CPU_SOURCES=memory (or http) measures one source only.
const SOURCES = (['http', 'memory'] as const).filter((s) => (process.env.BENCH_WALK_CPU_SOURCES ?? 'http,memory').split(',').includes(s))
const SIDES = ['raw', 'before', 'after'] as const
type Side = (typeof SIDES)[number]
type Source = keyof typeof ROUNDS

interface Tally {
  pages: number
  candles: number
  closeSum: number
}

export interface WalkCpu {
  before: string
  after: string
  pages: number
  /** CPU ms per candle page, per source, per side, one entry per round. */
  perPage: Record<Source, Record<Side, number[]>>
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
    // One walk through the working tree's SDK records every request and body: the raw loop sends
    // the same candle requests, and the memory source answers them.
    const bodies = new Map<string, string>()
    const candlePaths: string[] = []
    const recording = (async (input: string, init: RequestInit) => {
      const res = await fetch(input, init)
      const text = await res.text()
      if (res.status !== 200) throw new Error(`${input}: ${res.status} ${text.slice(0, 200)}`)
      const path = input.slice(server.url.length)
      bodies.set(path, text)
      if (path.startsWith('/v1/exchange_ohlcv')) candlePaths.push(path)
      return new Response(text, { status: res.status, headers: res.headers })
    }) as typeof fetch
    const reference = await sdkWalk(after.sdk, server.url, recording)
    const pages = candlePaths.length
    if (reference.candles !== RANGE.candles) throw new Error(`recording walk: ${reference.candles} candles, expected ${RANGE.candles}`)

    const MEMORY_URL = 'http://memory.invalid'
    const fromMemory = (async (input: string) => {
      const body = bodies.get(input.slice(MEMORY_URL.length))
      if (body === undefined) throw new Error(`not recorded: ${input}`)
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
    }) as typeof fetch

    const sdks: Record<'before' | 'after', SdkModule> = { before: before.sdk, after: after.sdk }
    const run = (source: Source, side: Side): Promise<Tally> => {
      const baseUrl = source === 'http' ? server.url : MEMORY_URL
      const fetchFn = source === 'http' ? fetch : fromMemory
      return side === 'raw' ? rawWalk(candlePaths.map((p) => baseUrl + p), fetchFn) : sdkWalk(sdks[side], baseUrl, source === 'http' ? undefined : fetchFn)
    }
    const check = (what: string, got: Tally) => {
      // The raw loop adds its pages in the order they arrive: the float sum may differ in its last bits.
      if (got.candles !== reference.candles || Math.abs(got.closeSum - reference.closeSum) > 1e-9 * reference.closeSum || got.pages !== pages) {
        throw new Error(`${what}: ${got.pages} pages, ${got.candles} candles (sum of close ${got.closeSum}); the recording walk: ${pages}, ${reference.candles} (${reference.closeSum})`)
      }
    }
    const perPage = { http: { raw: [], before: [], after: [] }, memory: { raw: [], before: [], after: [] } } as WalkCpu['perPage']
    for (const source of SOURCES) {
      // Warm-up of each side (JIT, keep-alive sockets), checked like the measured walks.
      for (const side of SIDES) check(`${source} ${side} (warm-up)`, await run(source, side))
      for (let r = 0; r < ROUNDS[source]; r++) {
        const order = r % 2 === 0 ? SIDES : [...SIDES].reverse()
        for (let i = 0; i < order.length; i++) {
          const side = order[(i + Math.floor(r / 2)) % order.length]!
          const { value, cpuMs } = await timed(() => run(source, side))
          check(`${source} ${side}`, value)
          perPage[source][side].push(cpuMs / pages)
        }
      }
    }
    return { before: before.label, after: after.label, pages, perPage, pass: true }
  } finally {
    await server.stop()
  }
}

/** The export's walk: its client options and exchangeOhlcvPages with the default windows in flight. */
async function sdkWalk(sdk: SdkModule, baseUrl: string, fetchFn: typeof fetch | undefined): Promise<Tally> {
  let responses = 0
  const client = sdk.createClient({
    apiKey: API_KEY,
    baseUrl,
    rateLimit: false,
    ...(fetchFn ? { fetch: fetchFn } : {}),
    hooks: { onResponse: (e) => void (e.endpoint === 'exchange_ohlcv' && responses++) },
  })
  const tally: Tally = { pages: 0, candles: 0, closeSum: 0 }
  for await (const page of client.exchangeOhlcvPages(walkParams(RANGE))) {
    tally.candles += page.candles.length
    for (let i = 0; i < page.candles.length; i++) tally.closeSum += page.candles[i]!.close
  }
  tally.pages = responses
  return tally
}

/** fetch -> text -> JSON.parse over `urls`, `IN_FLIGHT` at once (bench/export-child.ts rawRun). */
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
    `walk-cpu. Client CPU per page of the export's forward walk (exchangeOhlcvPages, ${IN_FLIGHT} windows in flight, rateLimit: false, an onResponse hook),`,
    `    ${r.pages} pages of 1000 1m candles; SDK before = ${r.before}, after = ${r.after}; raw = fetch -> text -> JSON.parse, the same requests, ${IN_FLIGHT} in flight;`,
    `    this process's CPU (user + system) per walk with its own GC, / pages; p10-p90 over rounds; every walk checked to see the same candles`,
  ]
  for (const source of SOURCES) {
    const s = r.perPage[source]
    const line = (side: Side) => {
      const x = stats(s[side])
      return `      ${side.padEnd(6)} ${fmt(x.median, 3)} ms/page (${fmt(x.low, 3)}-${fmt(x.high, 3)})  [${s[side].map((v) => fmt(v, 2)).join(', ')}]`
    }
    const extra = (side: 'before' | 'after') => stats(perRound(s[side], s.raw, (a, b) => a - b))
    const ratio = stats(perRound(s.after, s.before, (a, b) => a / b))
    const eb = extra('before')
    const ea = extra('after')
    lines.push(
      `  ${source === 'http' ? 'reference server over HTTP' : 'bodies answered from memory'}, ${s.raw.length} rounds:`,
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
  return SOURCES.map((source) => {
    const s = r.perPage[source]
    const ratio = stats(perRound(s.after, s.before, (a, b) => a / b))
    const extra = (side: 'before' | 'after') => fmt(median(perRound(s[side], s.raw, (a, b) => a - b)), 2)
    return {
      figure: `export walk CPU per page (${source === 'http' ? 'over HTTP' : 'bodies from memory'}): after/before ${fmt(ratio.median, 2)} (${fmt(ratio.low, 2)}–${fmt(ratio.high, 2)}); SDK's extra over raw ${extra('before')} → ${extra('after')} ms, raw ${fmt(median(s.raw), 2)} ms`,
      goal: '',
      verdict: 'info' as const,
    }
  })
}
