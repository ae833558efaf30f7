/**
 * Measurement 3e: the CPU per page of the candle walk itself, with a fake page source (pages of
 * 1000 candles already in memory, no HTTP, no JSON): `CandleWalk` (an async generator over the page
 * walk) against the hand-written iterator it replaced, which saved promise hops per candle. Both
 * walk the same pages through the same page walk and keep the same cursor bookkeeping; rounds
 * alternate the order. The difference is what a user could notice next to the 2 to 3 ms per page
 * that fetch + JSON.parse + validation cost (3a).
 */
import { CandleWalk, PageWalk, type WalkSource } from '../../src/pagination/walks.js'
import { cursorAfter, type CandlePage, type PageCursor } from '../../src/pagination/page-cursor.js'
import { timed } from '../support/cpu-time.js'
import { fmt, median, quantile, verdict } from '../support/stats.js'
import type { BenchRow } from '../support/table.js'

const PAGES = 200
const LIMIT = 1000
const ROUNDS = 16
const MINUTE = 60_000
const T0 = Date.UTC(2020, 0, 1)
const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')

type Candle = { close_ts: string; close: number }
const PAGES_DATA: Candle[][] = Array.from({ length: PAGES }, (_, p) => Array.from({ length: LIMIT }, (_, i) => ({ close_ts: iso(T0 + (p * LIMIT + i) * MINUTE), close: i })))
const source: WalkSource<Candle> = {
  fetchPage: async (query) => PAGES_DATA[Math.round((Date.parse(query.start!) - T0) / MINUTE / LIMIT)] ?? [],
}
const cursor: PageCursor = { version: 1, endpoint: 'exchange_ohlcv', direction: 'forward', query: { start: iso(T0), limit: String(LIMIT) } }

/** The hand-written candle iterator CandleWalk used before (same contract, same cursor bookkeeping). */
function handWritten(origin: PageCursor): AsyncIterator<Candle> & { cursor(): PageCursor | null } {
  let position: PageCursor | null = origin
  let pendingAfter: Candle | undefined
  const pages: AsyncIterator<CandlePage<Candle>> = new PageWalk(source, origin, { concurrency: 1 })[Symbol.asyncIterator]()
  let page: CandlePage<Candle> | undefined
  let ordered: readonly Candle[] = []
  let i = 0
  let busy: Promise<unknown> | undefined
  let open = true
  const done: IteratorReturnResult<undefined> = { value: undefined, done: true }
  const take = (): IteratorYieldResult<Candle> | undefined => {
    if (i >= ordered.length) return undefined
    const candle = ordered[i]!
    if (++i === ordered.length) {
      pendingAfter = undefined
      position = page!.cursor
    } else pendingAfter = candle
    return { value: candle, done: false }
  }
  const pull = async (): Promise<IteratorResult<Candle>> => {
    while (open) {
      const next = await pages.next()
      if (next.done) {
        open = false
        return done
      }
      page = next.value
      ordered = page.candles
      i = 0
      const first = take()
      if (first !== undefined) return first
    }
    return done
  }
  const whenIdle = <R>(then: () => Promise<R>): Promise<R> => (busy === undefined ? then() : busy.then(() => whenIdle(then)))
  const step = (): Promise<IteratorResult<Candle>> => {
    const result = take()
    if (result !== undefined) return Promise.resolve(result)
    if (!open) return Promise.resolve(done)
    const pulled = pull()
    busy = pulled.then(() => (busy = undefined))
    return pulled
  }
  return {
    next: () => whenIdle(step),
    cursor: () => (pendingAfter ? cursorAfter(origin, pendingAfter) : position),
  }
}

async function generatorWalk(): Promise<number> {
  let sum = 0
  for await (const c of new CandleWalk(source, cursor, { concurrency: 1 })) sum += c.close
  return sum
}

async function handWrittenWalk(): Promise<number> {
  let sum = 0
  const it = handWritten(cursor)
  for (let r = await it.next(); !r.done; r = await it.next()) sum += r.value.close
  return sum
}

export interface CandleWalkCpu {
  generator: number[]
  handWritten: number[]
  pass: boolean
}

export async function measureCandleWalkCpu(): Promise<CandleWalkCpu> {
  const expected = PAGES * ((LIMIT * (LIMIT - 1)) / 2)
  const generator: number[] = []
  const hand: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? ['generator', 'hand'] : ['hand', 'generator']) {
      const run = await timed(side === 'generator' ? generatorWalk : handWrittenWalk)
      if (run.value !== expected) throw new Error(`${side}: sum ${run.value}, expected ${expected}`)
      ;(side === 'generator' ? generator : hand).push(run.cpuMs / PAGES)
    }
  }
  // Informational: the decision rule is whether the difference exceeds the spread and matters next to a page's cost.
  return { generator: generator.slice(2), handWritten: hand.slice(2), pass: true }
}

export function reportCandleWalkCpu(r: CandleWalkCpu): string[] {
  const line = (name: string, xs: number[]) => `    ${name}: median ${fmt(median(xs), 3)} ms/page (p10 ${fmt(quantile(xs, 0.1), 3)}, p90 ${fmt(quantile(xs, 0.9), 3)}; ${xs.length} runs of ${PAGES} pages x ${LIMIT} candles)`
  const diff = median(r.generator) - median(r.handWritten)
  const spread = Math.max(quantile(r.generator, 0.9) - quantile(r.generator, 0.1), quantile(r.handWritten, 0.9) - quantile(r.handWritten, 0.1))
  return [
    '3e. CPU of the candle walk per page, fake page source in memory (no HTTP, no JSON), sequential, process CPU incl. its GC',
    line('async generator (CandleWalk)', r.generator),
    line('hand-written iterator (before)', r.handWritten),
    `  generator - hand-written: ${fmt(diff, 3)} ms/page (run-to-run spread p90-p10 up to ${fmt(spread, 3)} ms)  ${verdict(r.pass)} (informational)`,
  ]
}

/** Row of the final table: the generator's extra CPU per page, for comparison (no goal). */
export function tableCandleWalkCpu(r: CandleWalkCpu): BenchRow[] {
  return [{ figure: `candle walk CPU per page: async generator ${fmt(median(r.generator), 3)} ms vs hand-written ${fmt(median(r.handWritten), 3)} ms (fake source, 1000 candles)`, goal: '', verdict: 'info' }]
}
