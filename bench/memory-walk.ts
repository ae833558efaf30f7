/**
 * Measurement 3c: RSS while the SDK's default forward iterator walks 10,000,000 1m candles against
 * the in-process reference service. Each walk runs in a child process (memory-walk-child.ts): a
 * fresh heap, not one shaped by the earlier measurements, and default V8 heap limits (no
 * --max-old-space-size). The verdict is the walk with the adapter as specified; the same walk with
 * one event-loop turn per request (as over a socket) runs after it, for information.
 */
import { spawn } from 'node:child_process'
import { MEMORY_CANDLES, MEMORY_TARGET_MB, SAMPLE_MS, WARMUP_PAGES, type AdapterMode, type MemoryWalkResult } from './memory-walk-config.js'
import { fmt, verdict } from './stats.js'

const CHILD = 'bench/memory-walk-child.ts'
const TIMEOUT_MS = 300_000

export interface MemoryWalks {
  specified: MemoryWalkResult
  yielding: MemoryWalkResult
  pass: boolean
}

function walkInChild(mode: AdapterMode): Promise<MemoryWalkResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], { stdio: ['pipe', 'pipe', 'pipe'] })
  const kill = () => child.kill('SIGKILL')
  process.on('exit', kill)
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s))
  child.stderr.setEncoding('utf8').on('data', (s: string) => err.length < 8000 && (err += s))
  return new Promise<MemoryWalkResult>((resolve, reject) => {
    const timer = setTimeout(() => (kill(), reject(new Error(`${CHILD} ${mode}: no result within ${TIMEOUT_MS} ms`))), TIMEOUT_MS)
    child.once('error', (error) => (clearTimeout(timer), reject(error)))
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      process.off('exit', kill)
      const line = out.split('\n').find((l) => l.startsWith('result '))
      if (code !== 0 || !line) return reject(new Error(`${CHILD} ${mode} exited (${signal ?? code})${err ? `\n--- stderr ---\n${err.trimEnd()}` : ''}`))
      resolve(JSON.parse(line.slice('result '.length)) as MemoryWalkResult)
    })
  })
}

const ok = (r: MemoryWalkResult) => r.candles === MEMORY_CANDLES && r.strictlyAscending && r.growthMb < MEMORY_TARGET_MB

export async function measureMemoryWalks(): Promise<MemoryWalks> {
  const specified = await walkInChild('as-specified')
  const yielding = await walkInChild('yielding')
  return { specified, yielding, pass: ok(specified) }
}

function walkLines(r: MemoryWalkResult): string[] {
  const pagesAfter = r.pages - WARMUP_PAGES
  const timed = r.wallMs - r.warmupMs
  return [
    `  candles ${r.candles}, strictly ascending close_ts (no duplicate), first = start, last = end: ${r.strictlyAscending}; ${r.pages} candle requests`,
    `  per 1M candles, highest RSS (MB)     : ${r.timeline.map((t) => fmt(t.rssMaxMb, 0)).join(', ')}`,
    `  per 1M candles, lowest heapUsed (MB) : ${r.timeline.map((t) => fmt(t.heapFloorMb, 0)).join(', ')}  (an upper bound of the live heap; flat = nothing accumulates)`,
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
    `    each walk in its own child process (node --import tsx ${CHILD}, default heap limits); RSS every ${SAMPLE_MS} ms (timer, and from the loop when the timer is starved)`,
    `  adapter as specified (no event-loop turn during the walk):`,
    ...walkLines(s),
    `  (info) same walk, adapter turning the event loop once per request (setImmediate, as a socket would):`,
    ...walkLines(r.yielding),
    `  growth, adapter as specified: ${fmt(s.growthMb, 1)} MB (target < ${MEMORY_TARGET_MB} MB; 10,000,000 candles in order: ${s.candles === MEMORY_CANDLES && s.strictlyAscending})  ${verdict(r.pass)}` +
      `  [(info) with event-loop turns: ${fmt(r.yielding.growthMb, 1)} MB]`,
  ]
}
