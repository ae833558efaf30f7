/**
 * Measurement 3c: RSS while the SDK's default forward iterator walks 10,000,000 1m candles against
 * the in-process reference service. Each walk runs in a child process (memory-walk-child.ts): a
 * fresh heap, not one shaped by the earlier measurements, and default V8 heap limits (no
 * --max-old-space-size). The verdict is the walk with the adapter as specified; the same walk with
 * one event-loop turn per request (as over a socket) runs after it, for information.
 */
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runChildForResult } from '../support/child-result.js'
import { FLAT_MB, FLAT_PERCENT, MEMORY_CANDLES, SAMPLE_MS, WARMUP_PAGES, type AdapterMode, type MemoryWalkResult } from './memory-walk-config.js'
import { fmt } from '../support/stats.js'
import type { BenchRow } from '../support/table.js'

const CHILD = fileURLToPath(new URL('./memory-walk-child.ts', import.meta.url))
const TIMEOUT_MS = 300_000

export interface MemoryWalks {
  specified: MemoryWalkResult
  yielding: MemoryWalkResult
  rows: BenchRow[]
  pass: boolean
}

/** RSS and live heap (after a forced GC) at 1 M and at 10 M candles, and whether each stayed flat. */
export function steadyState(r: MemoryWalkResult) {
  const at1 = r.timeline.find((t) => t.candles === 1_000_000)
  const at10 = r.timeline.find((t) => t.candles === MEMORY_CANDLES)
  if (!at1 || !at10) throw new Error(`3c: no sample at 1 M or at ${MEMORY_CANDLES} candles`)
  const flat = (from: number, to: number) => to - from <= Math.max((from * FLAT_PERCENT) / 100, FLAT_MB)
  return {
    rss: { at1: at1.rssAfterGcMb, at10: at10.rssAfterGcMb, flat: flat(at1.rssAfterGcMb, at10.rssAfterGcMb) },
    heap: { at1: at1.liveHeapMb, at10: at10.liveHeapMb, flat: flat(at1.liveHeapMb, at10.liveHeapMb) },
  }
}

function walkInChild(mode: AdapterMode): Promise<MemoryWalkResult> {
  return runChildForResult<MemoryWalkResult>(CHILD, [mode], TIMEOUT_MS)
}

const GOAL = `flat: grows <= ${FLAT_PERCENT} % or ${FLAT_MB} MB`

export async function measureMemoryWalks(): Promise<MemoryWalks> {
  const specified = await walkInChild('as-specified')
  const yielding = await walkInChild('yielding')
  const complete = specified.candles === MEMORY_CANDLES && specified.strictlyAscending
  const s = steadyState(specified)
  const y = steadyState(yielding)
  // Each walk is one run, so there is no spread to compare with: the bound itself is the margin (see memory-walk-config.ts).
  const rows: BenchRow[] = [
    {
      figure: `RSS after a full GC, SDK walk of 10 M candles (in order: ${complete}), at 1 M → 10 M candles: ${fmt(s.rss.at1, 1)} → ${fmt(s.rss.at10, 1)} MB`,
      goal: GOAL,
      verdict: complete && s.rss.flat ? 'met' : 'not met',
    },
    { figure: `live heap after a full GC, the same walk, at 1 M → 10 M candles: ${fmt(s.heap.at1, 1)} → ${fmt(s.heap.at10, 1)} MB`, goal: GOAL, verdict: s.heap.flat ? 'met' : 'not met' },
    {
      figure:
        `the same walk, peak RSS minus RSS after ${WARMUP_PAGES} pages: ${fmt(specified.growthMb, 0)} MB (V8 growing its heap, not data kept); ` +
        `with an event-loop turn per request: RSS ${fmt(y.rss.at1, 1)} → ${fmt(y.rss.at10, 1)} MB, live heap ${fmt(y.heap.at1, 1)} → ${fmt(y.heap.at10, 1)} MB`,
      goal: '',
      verdict: 'info',
    },
  ]
  return { specified, yielding, rows, pass: rows.every((r) => r.verdict !== 'not met') }
}

function walkLines(r: MemoryWalkResult): string[] {
  const pagesAfter = r.pages - WARMUP_PAGES
  const timed = r.wallMs - r.warmupMs
  return [
    `  candles ${r.candles}, strictly ascending close_ts (no duplicate), first = start, last = end: ${r.strictlyAscending}; ${r.pages} candle requests`,
    `  per 1M candles, highest RSS (MB)     : ${r.timeline.map((t) => fmt(t.rssMaxMb, 0)).join(', ')}`,
    `  per 1M candles, lowest heapUsed (MB) : ${r.timeline.map((t) => fmt(t.heapFloorMb, 0)).join(', ')}  (an upper bound of the live heap; flat = nothing accumulates)`,
    `  per 1M candles, after a full GC: RSS (MB) ${r.timeline.map((t) => fmt(t.rssAfterGcMb, 0)).join(', ')}; live heap (MB) ${r.timeline.map((t) => fmt(t.liveHeapMb, 1)).join(', ')}`,
    `  baseline RSS ${fmt(r.baselineMb, 1)} MB (after ${WARMUP_PAGES} pages), peak ${fmt(r.peakMb, 1)} MB (at candle ${r.peakAtCandle}), final ${fmt(r.finalRssMb, 1)} MB; ` +
      `${r.samples} samples, ${r.timerTicks} of them from the ${SAMPLE_MS} ms timer`,
    `  time: ${fmt(r.wallMs / 1000, 1)} s wall (${fmt(timed / pagesAfter, 2)} ms/page after warm-up), child CPU after warm-up ${fmt(r.cpuMs / 1000, 1)} s (${fmt(r.cpuMs / pagesAfter, 2)} ms/page)`,
    `  V8 heap committed: ${fmt(r.baselineHeapMb, 1)} MB at the baseline; at the peak ${fmt(r.peakHeap.totalMb, 1)} MB committed, ${fmt(r.peakHeap.usedMb, 1)} MB in use (live + garbage awaiting GC), ${fmt(r.peakHeap.externalMb, 1)} MB external`,
    `  growth = peak - baseline = ${fmt(r.peakMb, 1)} - ${fmt(r.baselineMb, 1)} = ${fmt(r.growthMb, 1)} MB`,
  ]
}

export function reportMemoryWalks(r: MemoryWalks): string[] {
  const s = r.specified
  return [
    `3c. Memory: SDK default forward iterator (concurrency 8, validate on), ${s.candles} x 1m BTC/USD bitstamp candles, ${s.start} .. ${s.end},`,
    `    in-process reference service (createMockService, now=${s.now}, rateLimit off; fetch -> service.handle, no HTTP), client rateLimit: false;`,
    `    each walk in its own child process (node --import tsx ${relative(process.cwd(), CHILD)}, default heap limits); RSS every ${SAMPLE_MS} ms (timer, and from the loop when the timer is starved)`,
    `  adapter as specified (no event-loop turn during the walk):`,
    ...walkLines(s),
    `  (info) same walk, adapter turning the event loop once per request (setImmediate, as a socket would):`,
    ...walkLines(r.yielding),
    ...r.rows.map((row) => `  ${row.figure}${row.goal ? `  (${row.goal})` : ''}  ${row.verdict}`),
  ]
}
