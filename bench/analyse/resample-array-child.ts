/**
 * Child of bench section analyse (a): `resample` over 10 M `1m` candles held in one array, built
 * before the clock starts (about 3 GB: the parent gives this process a larger heap). Prints one JSON
 * line: source candles per second of wall time and of CPU time, per round.
 */
import { resample } from '../../src/index.js'
import { RESAMPLE_CANDLES, minuteCandles } from './resample-speed.js'

const ROUNDS = 3
const candles = Array.from(minuteCandles(RESAMPLE_CANDLES))
const wall: number[] = []
const cpu: number[] = []
let sink = 0
for (let round = 0; round < ROUNDS; round++) {
  const t = performance.now()
  const c0 = process.cpuUsage()
  let outputs = 0
  for (const c of resample(candles, '15m')) {
    sink += c.close
    outputs++
  }
  const ms = performance.now() - t
  const u = process.cpuUsage(c0)
  if (outputs !== Math.ceil(RESAMPLE_CANDLES / 15)) throw new Error(`expected ${Math.ceil(RESAMPLE_CANDLES / 15)} buckets, got ${outputs}`)
  wall.push(RESAMPLE_CANDLES / (ms / 1000))
  cpu.push(RESAMPLE_CANDLES / ((u.user + u.system) / 1e6))
}
if (sink === 42) console.log('') // keeps the sums alive
console.log(`result ${JSON.stringify({ wall, cpu })}`)
