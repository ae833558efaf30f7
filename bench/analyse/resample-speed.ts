/**
 * Section analyse (a): `resample` over 10 M `1m` candles, to `15m` (held in one array: bench/analyse/resample-array-child.ts). Here the candles are made
 * by a generator as they are consumed (10 M candle objects held at once would take about 2.5 GB);
 * the same generator is also run alone, in alternating rounds, so the cost of making candles is
 * measured beside the cost of resampling them. The heap is read after a full GC at 1 M and at 10 M
 * source candles, inside a resample run: flat when resample holds nothing per candle.
 * Rates are per second of wall time and per second of this process's CPU time: on a machine shared
 * with other jobs the wall time includes waiting for a core, the CPU time is what one free core gives.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { formatTimestamp } from '../../src/contract/index.js'
import { resample, type ExchangeCandle } from '../../src/index.js'
import { verdictOfRuns } from '../support/table.js'

export const RESAMPLE_CANDLES = 10_000_000
export const RESAMPLE_TARGET_PER_S = 5_000_000
export const HEAP_FLAT_MB = 2
const ROUNDS = 3
const START = Date.UTC(2000, 0, 1)

// Prices cycle through a small table: making a candle should cost little beside resampling it.
const PRICES = Float64Array.from({ length: 4096 }, (_, i) => 30_000 + 500 * Math.sin(i / 40))

export function* minuteCandles(count: number, onCount?: (n: number) => void): Generator<ExchangeCandle> {
  for (let i = 0; i < count; i++) {
    if (onCount !== undefined && (i === 1_000_000 || i === count - 1)) onCount(i)
    const p = PRICES[i & 4095]!
    yield {
      exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', close_ts: formatTimestamp(START + (i + 1) * 60_000),
      open: p, high: p + 5, low: p - 5, close: p + 1, base_volume: 1.5, quote_volume: 1.5 * p,
      source_provider: 'bench', source_channel: 'ws', flag: null,
    }
  }
}

function gcFunction(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

export interface ResampleSpeed {
  /** Source candles per second of wall time: generated alone, generated and resampled, and resample's own share. */
  generate: number[]
  total: number[]
  own: number[]
  /** The same per second of CPU time. */
  generateCpu: number[]
  totalCpu: number[]
  ownCpu: number[]
  outputs: number
  heapMb: { at1M: number; atEnd: number; growth: number }
  pass: boolean
}

export function measureResampleSpeed(): ResampleSpeed {
  const gc = gcFunction()
  const generate: number[] = []
  const total: number[] = []
  const own: number[] = []
  const generateCpu: number[] = []
  const totalCpu: number[] = []
  const ownCpu: number[] = []
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const u = process.cpuUsage(since)
    return (u.user + u.system) / 1000
  }
  let outputs = 0
  let sink = 0
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now()
    let cpu = process.cpuUsage()
    for (const c of minuteCandles(RESAMPLE_CANDLES)) sink += c.close
    const genMs = performance.now() - t
    const genCpuMs = cpuMs(cpu)
    t = performance.now()
    cpu = process.cpuUsage()
    outputs = 0
    for (const c of resample(minuteCandles(RESAMPLE_CANDLES), '15m')) {
      sink += c.close
      outputs++
    }
    const totalMs = performance.now() - t
    const totalCpuMs = cpuMs(cpu)
    // A difference of two loaded runs can come out at or below zero: no figure then, not a huge one.
    const rate = (ms: number) => (ms > 0 ? RESAMPLE_CANDLES / (ms / 1000) : Number.NaN)
    generate.push(rate(genMs))
    total.push(rate(totalMs))
    own.push(rate(totalMs - genMs))
    generateCpu.push(rate(genCpuMs))
    totalCpu.push(rate(totalCpuMs))
    ownCpu.push(rate(totalCpuMs - genCpuMs))
  }
  // Heap: one more run, a full GC at 1 M and at the last source candle.
  const heap: number[] = []
  const mark = () => {
    gc()
    heap.push(process.memoryUsage().heapUsed / 2 ** 20)
  }
  for (const c of resample(minuteCandles(RESAMPLE_CANDLES, mark), '15m')) sink += c.close
  if (sink === 42) console.log('') // keeps the sums alive
  const heapMb = { at1M: heap[0]!, atEnd: heap[1]!, growth: heap[1]! - heap[0]! }
  return { generate, total, own, generateCpu, totalCpu, ownCpu, outputs, heapMb, pass: verdictOfRuns(totalCpu, RESAMPLE_TARGET_PER_S) !== 'not met' && heapMb.growth <= HEAP_FLAT_MB && outputs === Math.ceil(RESAMPLE_CANDLES / 15) }
}

