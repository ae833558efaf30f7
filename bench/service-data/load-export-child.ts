/**
 * Child of bench section load-export: one `load` of the export's SQLite file in a fresh process
 * (`read`: readExport alone; `load`: service.data.load into a service without data, read + put).
 * Prints one JSON line: candles per second of wall and CPU time, the heap the result holds after a
 * full GC (typed arrays' memory included), and the process's peak RSS.
 */
import { createMockService } from '../../mocks/core/service/service.js'
import { readExport } from '../../mocks/data/export-files/index.js'

const [mode, file, expectedText] = process.argv.slice(2) as ['read' | 'load', string, string]
const expected = Number(expectedText)
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})
const service = mode === 'load' ? createMockService({ data: { exchanges: [], assets: [], candles: [] } }) : undefined
// The readers are imported before the clock starts: tsx transpiling them on first use is not
// the load's cost (the built package imports plain JS).
await Promise.all([import('../../mocks/data/export-files/index.js'), import('../../mocks/core/arranged/load-columns.js')])
// Typed arrays (a columnar load) live outside the JS heap: counted with it.
const held = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers
gc()
const heapBefore = held()
const rssBefore = process.memoryUsage().rss
const t = performance.now()
const c0 = process.cpuUsage()
let kept: unknown
let count: number
if (service) {
  count = (await service.data.load(file)).candles
  kept = service
} else {
  const candles = await readExport(file)
  count = candles.length
  kept = candles
}
const ms = performance.now() - t
const u = process.cpuUsage(c0)
if (count !== expected) throw new Error(`expected ${expected} candles, got ${count}`)
gc()
const heapHeld = held() - heapBefore
const peakRss = process.resourceUsage().maxRSS * 1024
if (kept === 42) console.log('')
console.log(`result ${JSON.stringify({ wall: count / (ms / 1000), cpu: count / ((u.user + u.system) / 1e6), heapHeld, peakRss, rssBefore })}`)
