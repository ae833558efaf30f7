import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openSqlite } from '../../../cli/export/sinks/sqlite/sqlite-sink.js'
import { DataError } from '../../../mocks/data/data-error.js'
import { createMockService, type MockService } from '../../../mocks/core/service/service.js'
import { readExport, readExportColumns } from '../../../mocks/data/export-files/index.js'

/*
 * load() of an export's SQLite file of exchange candles takes the columnar path (no candle object
 * per row): what it serves must equal the same candles put as objects, before and after later
 * changes over them, and a bad file must be refused as the object path refuses it.
 */
const HEADERS = { 'x-api-key': 'demo-enterprise-key' }
const START = '2025-01-01T00:00:00Z'
let dir: string
let file: string

/** 2500 1h candles of two pairs from the reference service, some rows' source and flag changed. */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'load-columns-'))
  file = join(dir, 'ex.sqlite')
  const reference = createMockService({ now: '2026-01-01T00:00:00Z', rateLimit: false })
  const sink = await openSqlite(file, 'exchange')
  for (const quote of ['USD', 'EUR']) {
    let start = Date.parse(START)
    for (let n = 0; n < 2500; ) {
      const url = `/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=${quote}&limit=1000&start=${new Date(start).toISOString()}`
      const page = (await reference.handle({ method: 'GET', url, headers: HEADERS })).body as Array<{ close_ts: string }>
      const rows = page.slice(0, 2500 - n)
      await sink.write({ kind: 'exchange', source: 'bitstamp', interval: '1h', base: 'BTC', quote, first: 0, last: 0 } as never, rows as never)
      n += rows.length
      start = Date.parse(rows.at(-1)!.close_ts) + 1
    }
  }
  await sink.close()
  const db = new DatabaseSync(file)
  db.exec("UPDATE exchange_candles SET source_provider = 'other' WHERE unixepoch(close_ts) / 3600 % 7 = 0")
  db.exec("UPDATE exchange_candles SET flag = 'outlier_excluded' WHERE unixepoch(close_ts) / 3600 % 11 = 0")
  db.exec("UPDATE exchange_candles SET source_channel = 'ws', flag = 'late' WHERE unixepoch(close_ts) / 3600 % 13 = 0")
  db.close()
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const empty = () => createMockService({ data: { exchanges: [], assets: [], candles: [] }, rateLimit: false })

/** Pages forwards and backwards over both series, one over the window's middle, and aggregated ones. */
async function pages(service: MockService): Promise<string> {
  const out = []
  for (const quote of ['USD', 'EUR']) {
    const base = `/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=${quote}`
    for (const q of [`&start=${START}&limit=1000`, '&start=2025-02-11T16:30:00Z&limit=1000', '&end=2025-05-01T00:00:00Z&limit=1000', '&start=2025-03-01T00:00:00Z&end=2025-03-02T00:00:00Z&limit=7']) {
      const res = await service.handle({ method: 'GET', url: base + q, headers: HEADERS })
      out.push({ status: res.status, body: res.body })
    }
  }
  // The loaded series feed aggregation (flags included).
  for (const q of [`&start=${START}&limit=1000`, '&end=2025-05-01T00:00:00Z&limit=1000']) {
    const res = await service.handle({ method: 'GET', url: `/v1/aggregated_ohlcv?method=omm_vwap_v1&interval=1h&base=BTC&quote=USD${q}`, headers: HEADERS })
    out.push({ status: res.status, body: res.body })
  }
  return JSON.stringify(out)
}

/** The same file through the object path: its candles as read, put with putCandles. */
async function asObjects(): Promise<MockService> {
  const service = empty()
  const { exchanges, assets } = (await import('../../../mocks/data/export-files/index.js')).derivedCatalog(await readExport(file), { exchange: () => undefined, hasAsset: () => false })
  for (const e of exchanges) service.data.putExchange(e)
  for (const a of assets) service.data.putAsset(a)
  service.data.putCandles(await readExport(file))
  return service
}

describe('load(file.sqlite) of exchange candles: read into columns, served as the same candles', () => {
  test('the columnar path takes the file, and its pages equal the candles put as objects', async () => {
    expect(readExportColumns(file)?.map((r) => r.length)).toEqual([2500, 2500])
    const loaded = empty()
    expect(await loaded.data.load(file)).toEqual({ candles: 5000 })
    const objects = await asObjects()
    expect(await pages(loaded)).toBe(await pages(objects))
  })

  test('puts, removals and generated ranges over a loaded series, and a second load, equal the same on objects', async () => {
    const loaded = empty()
    await loaded.data.load(file)
    const objects = await asObjects()
    const some = (await readExport(file)).slice(100, 105).map((c) => ({ ...c, base_volume: 0, quote_volume: 0 }))
    for (const s of [loaded, objects]) {
      s.data.putCandles(some)
      expect(s.data.removeCandles({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'EUR', from: '2025-01-10T00:00:00Z', to: '2025-01-12T00:00:00Z' })).toEqual({ candles: 49 })
      s.data.generate({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'EUR', from: '2025-02-10T00:00:00Z', to: '2025-02-11T00:00:00Z' } as never)
    }
    expect(await pages(loaded)).toBe(await pages(objects))
    await loaded.data.load(file)
    await objects.data.load(file)
    expect(await pages(loaded)).toBe(await pages(objects))
  })

  test('a bad row: the object path names it, and nothing changes', async () => {
    const bad = join(dir, 'bad.sqlite')
    copyFileSync(file, bad)
    const db = new DatabaseSync(bad)
    db.exec("UPDATE exchange_candles SET low = high + 1 WHERE quote = 'EUR' AND close_ts = '2025-02-01T00:00:00Z'")
    db.exec("UPDATE exchange_candles SET close_ts = '2025-02-01T00:30:00Z' WHERE quote = 'USD' AND close_ts = '2025-02-03T00:00:00Z'")
    db.close()
    const service = empty()
    const before = await pages(service)
    const error = await service.data.load(bad).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(DataError)
    expect((error as DataError).message).toMatch(/candles\[744\]\.low: low .* is above high .* \(.*bad\.sqlite: bitstamp BTC\/EUR 1h 2025-02-01T00:00:00Z\)/)
    expect((error as DataError).message).toMatch(/candles\[\d+\]\.close_ts: close_ts 2025-02-01T00:30:00Z is not on the 1h grid/)
    expect(await pages(service)).toBe(before)
  })
})
