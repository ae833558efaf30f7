/**
 * Section `arranged`: what arranged data costs.
 *
 * (a) A 1000-candle page of a series with arranged candles (10 put into every page's window, one
 * service) against a page of the default data of the same service (a pair of the same model and
 * price level), forwards (`start`) and backwards (`end`, no `start`), through `service.handle`: the
 * core alone, no HTTP, so the overlay's share is the largest it can be. Blocks of pages alternate
 * between the two (which goes first alternates too), so the machine's load hits both alike; per
 * group of pairs, the median ratio of CPU per page. A control row measures the same pages on a
 * service with nothing arranged: what the two pairs differ by alone.
 *
 * (b) Memory: a standalone server alone, then with 1,000 sessions (one request each: their
 * journals in use), then each arranging 10 candles and answering a page of them; RSS and heapUsed
 * after a full collection, in a child process (bench/service-data/arranged-data-memory-child.ts), three runs.
 */
import { fileURLToPath } from 'node:url'
import { createMockService, type MockService } from '../../mocks/core/service/service.js'
import type { ExchangeCandle } from '../../src/schemas/index.js'
import type { MemoryStage } from './arranged-data-memory-child.js'
import { runChildForResult } from '../support/child-result.js'
import { HEADERS, NOW } from '../support/fixtures.js'
import { fmt, median, spread, withSpread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'

/** A page with arranged candles may cost at most this much more than a page of the default data. */
export const ARRANGED_PAGE_GOAL = 1.1
/** 1,000 sessions arranging 10 candles each may add at most this much to a server's memory. */
export const SESSIONS_MEMORY_GOAL_MB = 100

const MEMORY_CHILD = fileURLToPath(new URL('./arranged-data-memory-child.ts', import.meta.url))
const MINUTE = 60_000
const PAGE = 1000
const WINDOWS = 16
const FIRST_WINDOW = Date.UTC(2024, 0, 1)
const BLOCK_PAGES = 4
const GROUPS = 5
const PAIRS = 24
const MEMORY_RUNS = 3

interface Direction {
  label: string
  arranged: string[]
  plain: string[]
}

export interface ArrangedDataCost {
  /** Per direction, the median ratio arranged / default of each group. */
  directions: { label: string; groups: number[]; arrangedUs: number[]; plainUs: number[] }[]
  /** The same pages on a service with nothing arranged: what the two pairs differ by alone. */
  control: { label: string; groups: number[]; arrangedUs: number[]; plainUs: number[] }[]
  memory: MemoryStage[][]
  rows: BenchRow[]
  pass: boolean
}

const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')
const ohlcv = (pair: string, q: string) => `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&${pair}&limit=${PAGE}&${q}`

/** 10 candles inside each window, at every 100th minute. */
function arrange(service: MockService): void {
  const rows: ExchangeCandle[] = []
  for (let w = 0; w < WINDOWS; w++) {
    const windowStart = FIRST_WINDOW + w * 7 * 86_400_000
    for (let k = 0; k < 10; k++) {
      rows.push({
        exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', close_ts: iso(windowStart + (50 + k * 100) * MINUTE),
        open: 30_000, high: 30_100, low: 29_900, close: 30_050, base_volume: 2, quote_volume: 60_000, source_provider: 'bench', source_channel: 'bench', flag: null,
      })
    }
  }
  service.data.putCandles(rows)
}

function directions(): Direction[] {
  const windows = Array.from({ length: WINDOWS }, (_, w) => FIRST_WINDOW + w * 7 * 86_400_000)
  // BTC/EUR: the same model and price level as BTC/USD, untouched.
  const urls = (pair: string, q: (start: number) => string) => windows.map((start) => ohlcv(pair, q(start)))
  const forward = (start: number) => `start=${iso(start)}`
  const backward = (start: number) => `end=${iso(start + (PAGE - 1) * MINUTE)}`
  return [
    { label: 'forward (start)', arranged: urls('base=BTC&quote=USD', forward), plain: urls('base=BTC&quote=EUR', forward) },
    { label: 'backward (end)', arranged: urls('base=BTC&quote=USD', backward), plain: urls('base=BTC&quote=EUR', backward) },
  ]
}

async function pageCost(service: MockService, urls: readonly string[], from: number): Promise<number> {
  const t0 = process.cpuUsage()
  for (let i = 0; i < BLOCK_PAGES; i++) {
    const res = await service.handle({ method: 'GET', url: urls[(from + i) % urls.length]!, headers: HEADERS })
    if (res.status !== 200 || (res.body as unknown[]).length !== PAGE) throw new Error(`bench arranged: ${urls[0]} answered ${res.status}`)
  }
  const t = process.cpuUsage(t0)
  return (t.user + t.system) / BLOCK_PAGES
}

async function measurePages(arranged: boolean): Promise<ArrangedDataCost['directions']> {
  const service = createMockService({ now: NOW, rateLimit: false, journal: false })
  if (arranged) arrange(service)
  // Every arranged page holds its 10 arranged candles.
  for (const d of directions()) {
    for (const url of d.arranged) {
      const page = (await service.handle({ method: 'GET', url, headers: HEADERS })).body as ExchangeCandle[]
      if (page.filter((c) => c.source_provider === 'bench').length !== (arranged ? 10 : 0)) throw new Error(`bench arranged: ${url} does not hold its 10 arranged candles`)
    }
  }
  const out: ArrangedDataCost['directions'] = []
  for (const d of directions()) {
    for (let i = 0; i < 10; i++) await pageCost(service, d.arranged, i), await pageCost(service, d.plain, i)
    const groups: number[] = []
    const arrangedUs: number[] = []
    const plainUs: number[] = []
    let next = 0
    for (let g = 0; g < GROUPS; g++) {
      const ratios: number[] = []
      for (let p = 0; p < PAIRS; p++) {
        next += BLOCK_PAGES
        let a: number
        let b: number
        if (p % 2 === 0) (a = await pageCost(service, d.arranged, next)), (b = await pageCost(service, d.plain, next))
        else (b = await pageCost(service, d.plain, next)), (a = await pageCost(service, d.arranged, next))
        ratios.push(a / b)
        arrangedUs.push(a)
        plainUs.push(b)
      }
      groups.push(median(ratios))
    }
    out.push({ label: d.label, groups, arrangedUs, plainUs })
  }
  return out
}

export async function measureArrangedData(): Promise<ArrangedDataCost> {
  const pages = await measurePages(true)
  const control = await measurePages(false)
  const memory: MemoryStage[][] = []
  for (let r = 0; r < MEMORY_RUNS; r++) memory.push(await runChildForResult<MemoryStage[]>(MEMORY_CHILD, [], 300_000, undefined, ['--expose-gc']))
  const rows: BenchRow[] = pages.map((d) => {
    return {
      figure: `a 1000-candle page with 10 arranged candles / a page of the default data, ${d.label}: ${withSpread(d.groups, 3)}×`,
      goal: `<= ${ARRANGED_PAGE_GOAL}×`,
      verdict: verdictOfRuns(d.groups, ARRANGED_PAGE_GOAL, true),
    }
  })
  for (const d of control) {
    rows.push({ figure: `control, nothing arranged: BTC/USD / BTC/EUR pages of the default data, ${d.label}: ${withSpread(d.groups, 3)}×`, goal: '', verdict: 'info' })
  }
  const added = (key: 'rssMb' | 'heapUsedMb') => memory.map((run) => run[2]![key] - run[0]![key])
  for (const key of ['rssMb', 'heapUsedMb'] as const) {
    rows.push({
      figure: `1,000 sessions arranging 10 candles each, added ${key === 'rssMb' ? 'RSS' : 'heapUsed'}: ${withSpread(added(key), 1, ' MB')}`,
      goal: `< ${SESSIONS_MEMORY_GOAL_MB} MB`,
      verdict: verdictOfRuns(added(key), SESSIONS_MEMORY_GOAL_MB, true),
    })
  }
  return { directions: pages, control, memory, rows, pass: rows.every((r) => r.verdict !== 'not met') }
}

export function reportArrangedData(r: ArrangedDataCost): string[] {
  const lines = ['arranged. Arranged data: page cost against the default data, and the memory of 1,000 arranging sessions']
  for (const d of r.directions) {
    lines.push(`  ${d.label}: arranged ${fmt(median(d.arrangedUs) / 1000, 2)} ms/page, default ${fmt(median(d.plainUs) / 1000, 2)} ms/page (CPU, medians); ratio per group ${d.groups.map((g) => fmt(g, 3)).join(' ')}`)
  }
  for (const d of r.control) {
    lines.push(`  control (nothing arranged), ${d.label}: BTC/USD ${fmt(median(d.arrangedUs) / 1000, 2)} ms/page, BTC/EUR ${fmt(median(d.plainUs) / 1000, 2)} ms/page; ratio per group ${d.groups.map((g) => fmt(g, 3)).join(' ')}`)
  }
  for (const [i, run] of r.memory.entries()) {
    lines.push(`  memory run ${i + 1}: ${run.map((s) => `${s.stage}: RSS ${fmt(s.rssMb, 1)} MB, heapUsed ${fmt(s.heapUsedMb, 1)} MB, new space ${fmt(s.newSpaceMb, 1)} MB`).join('; ')}`)
  }
  const journals = r.memory.map((run) => run[1]!.heapUsedMb - run[0]!.heapUsedMb)
  lines.push(`  1,000 sessions with one request each (journals in use), added heapUsed: ${withSpread(journals, 1, ' MB')}`)
  return lines
}
