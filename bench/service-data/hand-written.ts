/**
 * The side-by-side run behind docs/reference-service.md "Hand-written code kept" (not a section of
 * `npm run bench`: no goal, a comparison): `npx tsx bench/service-data/hand-written.ts csv`, the CSV reader
 * against csv-parse over 1 M candles (needs `npm install --no-save csv-parse@7`). The first round
 * is warm-up. (Its `encode` mode, serve's JSON encoder against JSON.stringify, went with the
 * encoder: it is at commit 8255146.)
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { csvHeader, csvLines } from '../../cli/export/sinks/lines/csv-format.js'
import { createMockService } from '../../mocks/core/service/service.js'
import { forEachLine } from '../../mocks/data/export-files/lines/read-lines.js'
import { parseCsvLine } from '../../mocks/data/export-files/lines/csv-line.js'
import { withSpread } from '../support/stats.js'

const [mode] = process.argv.slice(2)
const cpuMs = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000
const NOW = '2026-01-01T00:00:00Z'
const KEY = { 'x-api-key': 'demo-enterprise-key' }
const pageUrl = (start: number) => `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000&start=${new Date(start).toISOString()}`

if (mode === 'csv') {
  const { parse } = (await import('csv-parse' as string).catch(() => {
    console.error('hand-written: csv-parse is not installed: npm install --no-save csv-parse@7')
    process.exit(2)
  })) as { parse: () => NodeJS.ReadWriteStream }
  const dir = mkdtempSync(join(tmpdir(), 'hand-written-'))
  const file = join(dir, 'c.csv')
  const service = createMockService({ now: NOW, rateLimit: false })
  let csv = csvHeader('exchange')
  for (let n = 0, start = Date.parse('2020-01-01T00:00:00Z'); n < 1_000_000; n += 1000, start += 1000 * 60_000) {
    csv += csvLines('exchange', (await service.handle({ method: 'GET', url: pageUrl(start), headers: KEY })).body as never)
  }
  writeFileSync(file, csv)
  const ours: number[] = []
  const theirs: number[] = []
  for (let round = 0; round < 4; round++) {
    let c0 = cpuMs()
    let n = 0
    forEachLine(file, (line) => void (n += parseCsvLine(line).length), true)
    if (round > 0) ours.push((cpuMs() - c0) / 1000)
    c0 = cpuMs()
    for await (const record of createReadStream(file).pipe(parse())) n -= (record as unknown as string[]).length
    if (round > 0) theirs.push((cpuMs() - c0) / 1000)
    if (n !== 0) throw new Error('the two parsers read different fields')
  }
  rmSync(dir, { recursive: true, force: true })
  console.log(`1 M-candle CSV, records parsed: ours ${withSpread(ours, 2, ' s')} CPU, csv-parse ${withSpread(theirs, 2, ' s')} CPU`)
  process.exit(0)
}
console.error(`hand-written: ${mode === undefined ? 'no mode given' : `no mode ${mode}`}\nUsage: npx tsx bench/service-data/hand-written.ts csv`)
process.exit(2)
