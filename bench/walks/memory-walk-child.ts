/**
 * The body of measurement 3c, run as its own process
 * (`node --import tsx bench/walks/memory-walk-child.ts as-specified|yielding`) so its RSS is not shaped by
 * the earlier measurements' heaps. Walks MEMORY_CANDLES 1m candles with the SDK's default forward
 * iterator against the reference service in this process (no HTTP; `yielding`: the adapter turns the
 * event loop once per request, see in-process-fetch.ts), samples RSS, checks every candle, and
 * prints one line: `result <JSON of MemoryWalkResult>`. Exits when its stdin closes (the bench died).
 */
import { createMockService } from '../../mocks/core/service/service.js'
import { defaultDataset } from '../../mocks/data/procedural/default-dataset.js'
import { createClient } from '../../src/index.js'
import { fullGc, processCpuMs } from '../support/cpu-time.js'
import { API_KEY } from '../support/fixtures.js'
import { inProcessFetch } from './in-process-fetch.js'
import { MEMORY_CANDLES, MEMORY_NOW, MEMORY_START_MS, SAMPLE_MS, WARMUP_PAGES, type AdapterMode, type MemoryWalkResult } from './memory-walk-config.js'
import { rangeWithCandles, walkParams } from '../support/walk-range.js'

const mode = process.argv[2] as AdapterMode
if (mode !== 'as-specified' && mode !== 'yielding') {
  console.error('usage: memory-walk-child.ts as-specified|yielding')
  process.exit(2)
}
process.stdin.on('end', () => process.exit(3))
process.stdin.resume()

const MB = 2 ** 20
const outages = defaultDataset.exchanges.find((e) => e.name === 'bitstamp')!.outages ?? []
const range = rangeWithCandles(MEMORY_START_MS, MEMORY_CANDLES, outages.map((o) => ({ from: Date.parse(o.from), to: Date.parse(o.to) })))

const service = createMockService({ now: MEMORY_NOW, rateLimit: false })
let pages = 0
const client = createClient({
  apiKey: API_KEY,
  baseUrl: 'http://in-process.test',
  rateLimit: false,
  fetch: inProcessFetch(service, { yieldToEventLoop: mode === 'yielding' }),
  hooks: { onResponse: (e) => e.endpoint === 'exchange_ohlcv' && pages++ },
})

// Memory: every SAMPLE_MS from a timer, and also from the loop (the walk may hold the event loop in
// microtasks for longer than a timer period), at most one sample per SAMPLE_MS from the loop. Per
// million candles, the highest RSS and the lowest heapUsed (the heap's floor, an upper bound of what
// survives GC: a leak shows as a rising floor even while RSS is dominated by garbage awaiting GC).
let baseline: number | undefined
let peak = 0
let peakAtCandle = 0
let peakUsage: NodeJS.MemoryUsage | undefined
let baselineHeapMb = 0
let samples = 0
let candles = 0
let lastSample = performance.now()
let segment = { rssMax: 0, heapFloor: Infinity }
const sample = () => {
  lastSample = performance.now()
  const usage = process.memoryUsage()
  const { rss, heapUsed } = usage
  segment.rssMax = Math.max(segment.rssMax, rss)
  segment.heapFloor = Math.min(segment.heapFloor, heapUsed)
  if (baseline === undefined) return
  samples++
  if (rss > peak) {
    peak = rss
    peakAtCandle = candles
    peakUsage = usage
  }
}
let timerTicks = 0
const timer = setInterval(() => (timerTicks++, sample()), SAMPLE_MS)
timer.unref()

const timeline: MemoryWalkResult['timeline'] = []
const firstMs = Date.parse(range.start)
const lastMs = Date.parse(range.end)
let previous = -Infinity
let warmupMs = 0
let cpu0 = 0
const t0 = performance.now()
for await (const candle of client.exchangeOhlcvCandles(walkParams(range))) {
  const t = Date.parse(candle.close_ts)
  if (!(t > previous)) throw new Error(`candle ${candles}: close_ts ${candle.close_ts} not after ${new Date(previous).toISOString()}`)
  if (candles === 0 && t !== firstMs) throw new Error(`first candle ${candle.close_ts}, expected ${range.start}`)
  previous = t
  candles++
  if (candles % 1000 === 0) {
    if (baseline === undefined && candles === WARMUP_PAGES * 1000) {
      peakUsage = process.memoryUsage()
      baseline = peakUsage.rss
      baselineHeapMb = peakUsage.heapTotal / MB
      peak = baseline
      peakAtCandle = candles
      warmupMs = performance.now() - t0
      cpu0 = processCpuMs()
    }
    if (candles % 1_000_000 === 0) {
      sample()
      fullGc()
      const afterGc = process.memoryUsage()
      timeline.push({ candles, rssMaxMb: segment.rssMax / MB, heapFloorMb: segment.heapFloor / MB, rssAfterGcMb: afterGc.rss / MB, liveHeapMb: afterGc.heapUsed / MB })
      segment = { rssMax: 0, heapFloor: Infinity }
    }
    if (performance.now() - lastSample >= SAMPLE_MS) sample()
  }
}
sample()
const wallMs = performance.now() - t0
if (candles !== MEMORY_CANDLES) throw new Error(`${candles} candles, expected ${MEMORY_CANDLES}`)
if (previous !== lastMs) throw new Error(`last candle ${new Date(previous).toISOString()}, expected ${range.end}`)

const result: MemoryWalkResult = {
  mode,
  now: MEMORY_NOW,
  start: range.start,
  end: range.end,
  candles,
  pages,
  strictlyAscending: true,
  baselineMb: baseline! / MB,
  peakMb: peak / MB,
  growthMb: (peak - baseline!) / MB,
  peakAtCandle,
  baselineHeapMb,
  peakHeap: {
    totalMb: peakUsage!.heapTotal / MB,
    usedMb: peakUsage!.heapUsed / MB,
    externalMb: peakUsage!.external / MB,
  },
  finalRssMb: process.memoryUsage().rss / MB,
  samples,
  timerTicks,
  timeline,
  warmupMs,
  wallMs,
  cpuMs: processCpuMs() - cpu0,
}
console.log(`result ${JSON.stringify(result)}`)
process.exit(0)
