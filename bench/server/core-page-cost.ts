/** Measurement 1: cost of one 1000-candle page from the core, near end vs far end of the history. */
import { createMockService, type MockService } from '../../mocks/core/service/service.js'
import { HEADERS, MINUTE, NOW, NOW_MS, PAGE_LIMIT, farUrl, nearUrl } from '../support/fixtures.js'
import { fmt, median, quantile, spread } from '../support/stats.js'
import { verdictOf, type BenchRow } from '../support/table.js'

export const CORE_TARGET = 1.2

const FAR_ORIGIN = Date.UTC(2016, 0, 1) // 10 years before NOW; BTC/USD on bitstamp is listed from 2015-01-01
const WARMUP_MS = 750
const BUDGET_MS_PER_SIDE = 3000
const MAX_SAMPLES_PER_SIDE = 4000

export interface CorePageCost {
  nearMs: number[]
  farMs: number[]
  ratio: number
  /** far/near of the medians in each fifth of the samples, in order: the spread over the run. */
  blockRatios: number[]
  rows: BenchRow[]
  pass: boolean
}

const BLOCKS = 5

// Distinct windows: k-th page ends (near) or starts (far) k * 7 min + k s away from the origin.
const nearEnd = (k: number) => NOW_MS - (k % 997) * 7 * MINUTE - (k % 59) * 1000
const farStart = (k: number) => FAR_ORIGIN + (k % 997) * 7 * MINUTE + (k % 59) * 1000

async function timePage(service: MockService, url: string): Promise<number> {
  const t0 = performance.now()
  const res = await service.handle({ method: 'GET', url, headers: HEADERS })
  const elapsed = performance.now() - t0
  if (res.status !== 200 || !Array.isArray(res.body) || res.body.length !== PAGE_LIMIT) {
    throw new Error(`core answered ${url} with ${res.status}, ${Array.isArray(res.body) ? res.body.length : 'no'} candles`)
  }
  return elapsed
}

export async function measureCorePageCost(): Promise<CorePageCost> {
  const service = createMockService({ now: NOW, rateLimit: false })

  const warmupEnd = performance.now() + WARMUP_MS
  for (let k = 0; performance.now() < warmupEnd && k < 10_000; k++) {
    await timePage(service, nearUrl(nearEnd(k + 500)))
    await timePage(service, farUrl(farStart(k + 500)))
  }

  const nearMs: number[] = []
  const farMs: number[] = []
  let nearTotal = 0
  let farTotal = 0
  // Interleaved ABBA order, so drift (GC, JIT, frequency) hits both sides alike.
  for (let k = 0; k < MAX_SAMPLES_PER_SIDE && nearTotal < BUDGET_MS_PER_SIDE && farTotal < BUDGET_MS_PER_SIDE; k++) {
    const near = () => timePage(service, nearUrl(nearEnd(k)))
    const far = () => timePage(service, farUrl(farStart(k)))
    let n: number
    let f: number
    if (k % 2 === 0) {
      n = await near()
      f = await far()
    } else {
      f = await far()
      n = await near()
    }
    nearMs.push(n)
    farMs.push(f)
    nearTotal += n
    farTotal += f
  }
  const ratio = median(farMs) / median(nearMs)
  const size = Math.floor(farMs.length / BLOCKS)
  const blockRatios = Array.from({ length: BLOCKS }, (_, b) => median(farMs.slice(b * size, (b + 1) * size)) / median(nearMs.slice(b * size, (b + 1) * size)))
  const { low, high } = spread(blockRatios)
  const rows: BenchRow[] = [
    {
      figure: `core page of 1000 1m candles, far end (2016) / near end of a 10-year history: ${fmt(ratio)} (${fmt(low)}–${fmt(high)} over ${BLOCKS} blocks of samples); ${fmt(median(farMs))} / ${fmt(median(nearMs))} ms`,
      goal: `<= ${CORE_TARGET}`,
      verdict: verdictOf(ratio, low, high, CORE_TARGET, true),
    },
  ]
  return { nearMs, farMs, ratio, blockRatios, rows, pass: rows.every((r) => r.verdict !== 'not met') }
}

export function reportCorePageCost(r: CorePageCost): string[] {
  const line = (name: string, xs: number[]) =>
    `  ${name}: n=${xs.length}  median=${fmt(xs.length && median(xs))} ms  p10=${fmt(quantile(xs, 0.1))} ms  p90=${fmt(quantile(xs, 0.9))} ms`
  return [
    `1. Core page cost (service.handle, ${PAGE_LIMIT} x 1m BTC/USD bitstamp, now=${NOW}, rateLimit off, enterprise key)`,
    line('near (no start, end within ~5 days of now)', r.nearMs),
    line('far  (start from 2016-01-01, ~10 y back)  ', r.farMs),
    `  far/near per fifth of the samples: [${r.blockRatios.map((x) => fmt(x)).join(', ')}]`,
    `  far/near = ${fmt(median(r.farMs))} / ${fmt(median(r.nearMs))} = ${fmt(r.ratio)}  (target <= ${CORE_TARGET})  ${r.rows[0]!.verdict}`,
  ]
}
