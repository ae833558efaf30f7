/**
 * The side-by-side runs behind docs/reference-service.md "Hand-written code kept" (not a section of
 * `npm run bench`: no goal, a comparison): `npx tsx bench/hand-written.ts encode` (serve's JSON
 * encoder against JSON.stringify, 1000-candle pages over HTTP one after another, two server child
 * processes) and `npx tsx bench/hand-written.ts csv` (the CSV reader against csv-parse over 1 M
 * candles; needs `npm install --no-save csv-parse@7`). Rounds alternate; the first is warm-up.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, createServer, get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { csvHeader, csvLines } from '../cli/export/sinks/lines/csv-format.js'
import { BytePool } from '../mocks/core/encode/byte-pool.js'
import { encodeJson } from '../mocks/core/encode/encode-json.js'
import { createMockService } from '../mocks/core/service/service.js'
import { forEachLine } from '../mocks/data/export-files/read-lines.js'
import { parseCsvLine } from '../mocks/data/export-files/csv-line.js'
import { startChildServer } from './child-server.js'
import { withSpread } from './stats.js'

const [mode, variant] = process.argv.slice(2)
const cpuMs = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000
const NOW = '2026-01-01T00:00:00Z'
const KEY = { 'x-api-key': 'demo-enterprise-key' }
const pageUrl = (start: number) => `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=1000&start=${new Date(start).toISOString()}`

if (mode === 'encode-server') {
  // A server that writes each answer one way; GET /cpu gives its CPU so far.
  const service = createMockService({ now: NOW, rateLimit: false })
  const pool = new BytePool()
  const server = createServer(async (req, res) => {
    if (req.url === '/cpu') return void res.end(String(cpuMs()))
    const answer = await service.handle({ method: 'GET', url: req.url!, headers: req.headers })
    const body = variant === 'stringify' ? Buffer.from(JSON.stringify(answer.body)) : encodeJson(answer.body, pool)
    res.writeHead(answer.status, { ...answer.headers, 'content-length': body.length })
    res.end(body, () => variant === 'stringify' || pool.give(body))
  })
  server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`))
} else if (mode === 'encode') {
  const agent = new Agent({ keepAlive: true })
  const text = (url: string) =>
    new Promise<string>((resolve, reject) =>
      get(url, { agent, headers: KEY }, (r) => {
        let t = ''
        r.setEncoding('utf8').on('data', (d: string) => (t += d)).on('end', () => resolve(t))
      }).on('error', reject),
    )
  const ways = ['encodeJson', 'stringify'] as const
  const servers = await Promise.all(ways.map((w) => startChildServer(w, ['--import', 'tsx', 'bench/hand-written.ts', 'encode-server', w])))
  const wall: Record<string, number[]> = { encodeJson: [], stringify: [] }
  const cpu: Record<string, number[]> = { encodeJson: [], stringify: [] }
  const PAGES = 150
  for (let round = 0; round < 6; round++) {
    for (const [i, way] of ways.entries()) {
      const url = servers[i]!.url
      const c0 = Number(await text(`${url}/cpu`))
      const t0 = performance.now()
      for (let p = 0, start = Date.parse('2025-06-01T00:00:00Z'); p < PAGES; p++, start += 1000 * 60_000) await text(`${url}${pageUrl(start)}`)
      if (round === 0) continue
      wall[way]!.push((performance.now() - t0) / PAGES)
      cpu[way]!.push((Number(await text(`${url}/cpu`)) - c0) / PAGES)
    }
  }
  for (const s of servers) await s.stop()
  for (const way of ways) console.log(`${way}: a 1000-candle page over HTTP ${withSpread(wall[way]!, 2, ' ms')} wall, server CPU ${withSpread(cpu[way]!, 2, ' ms')}`)
  process.exit(0)
} else if (mode === 'csv') {
  const { parse } = (await import('csv-parse' as string)) as { parse: () => NodeJS.ReadWriteStream }
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
