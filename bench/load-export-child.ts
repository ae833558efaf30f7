/**
 * Child of bench section load-export: one `load` of the export's SQLite file in a fresh process
 * (`read`: readExport alone; `load`: service.data.load into a service without data, read + put).
 * Prints one JSON line: candles per second of wall and CPU time, the heap the result holds after a
 * full GC, and the process's peak RSS.
 */
import { createMockService } from '../mocks/core/service.js'
import { readExport } from '../mocks/data/export-files/index.js'

const [mode, file, expectedText] = process.argv.slice(2) as ['read' | 'load', string, string]
const expected = Number(expectedText)
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})
const service = mode === 'load' ? createMockService({ data: { exchanges: [], assets: [], candles: [] } }) : undefined
gc()
const heapBefore = process.memoryUsage().heapUsed
const rssBefore = process.memoryUsage().rss
const t = performance.now()
const c0 = process.cpuUsage()
let held: unknown
let count: number
if (service) {
  count = (await service.data.load(file)).candles
  held = service
} else {
  const candles = await readExport(file)
  count = candles.length
  held = candles
}
const ms = performance.now() - t
const u = process.cpuUsage(c0)
if (count !== expected) throw new Error(`expected ${expected} candles, got ${count}`)
gc()
const heapHeld = process.memoryUsage().heapUsed - heapBefore
const peakRss = process.resourceUsage().maxRSS * 1024
if (held === 42) console.log('')
console.log(`result ${JSON.stringify({ wall: count / (ms / 1000), cpu: count / ((u.user + u.system) / 1e6), heapHeld, peakRss, rssBefore })}`)
