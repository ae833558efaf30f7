import { copyFileSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DataError } from '../../mocks/data/data-error.js'
import { createMockService } from '../../mocks/core/service/service.js'
import type { ExchangeColumns } from '../../mocks/data/exchange-columns.js'
import { CloseTimeBytes } from '../../mocks/data/export-files/close-time-bytes.js'
import { CloseTimeReader } from '../../mocks/data/export-files/close-time-reader.js'
import { readSqliteBtree } from '../../mocks/data/export-files/read-sqlite-btree.js'
import { numberOf } from '../../mocks/data/export-files/sqlite-record.js'
import { readSqliteColumns, readSqliteColumnsByQuery } from '../../mocks/data/export-files/read-sqlite-columns.js'
import { AGGREGATED_TABLE, EXCHANGE_TABLE } from '../../mocks/data/export-files/sqlite-tables.js'
import { runCli } from '../export/run-cli.js'
import { seededRandom } from '../../mocks/core/faults/seeded-random.js'

/*
 * load()'s direct reader of an export's SQLite file (read-sqlite-btree.ts) against node:sqlite's
 * query (readSqliteColumnsByQuery): on every file it takes, exactly the same columns; on anything
 * else it steps aside (undefined) and node:sqlite reads the file; on a corrupt file it neither
 * throws nor hangs.
 */
let dir: string
const cli = { exchange: '', both: '' }

async function exportTo(kind: string[], out: string): Promise<void> {
  const args = ['export', '--mock', ...kind, '--interval', '1h', '--start', '2025-01-01T00:00:00Z', '--end', '2025-03-15T00:00:00Z', '--out', out, '--quiet']
  const result = await runCli(args, {}, 60_000)
  if (result.code !== 0) throw new Error(`export to ${out} failed (${result.code}): ${result.stderr}`)
}

beforeAll(async () => {
  dir = process.env.KEEP_DIR ?? mkdtempSync(join(tmpdir(), 'load-sqlite-btree-'))
  cli.exchange = join(dir, 'cli-exchange.sqlite')
  cli.both = join(dir, 'cli-both.sqlite')
  const pairs = ['--pair', 'BTC/USD', '--pair', 'ETH/USD']
  // The exchange file, then a copy of it that an aggregated export adds its table's rows to.
  await exportTo(['--exchange', 'bitstamp', ...pairs], cli.exchange)
  copyFileSync(cli.exchange, cli.both)
  await exportTo(['--aggregated', '--pair', 'BTC/USD'], cli.both)
}, 180_000)

afterAll(() => {
  if (process.env.KEEP_DIR === undefined) rmSync(dir, { recursive: true, force: true })
})

type Row = [string, string, string, string, string, number, number, number, number, number, number, string, string, string | null]

interface FileOptions {
  pageSize?: number
  journal?: 'WAL' | 'DELETE'
  encoding?: string
  /** The exchange table's text (after CREATE TABLE); the export's by default. */
  table?: string
}

/** A file as the export's sink lays it out (its schema, page size and WAL), with these rows. */
function build(name: string, rows: readonly Row[], options: FileOptions = {}): string {
  const path = join(dir, name)
  const db = new DatabaseSync(path)
  db.exec(`PRAGMA page_size = ${options.pageSize ?? 16384}`)
  if (options.encoding !== undefined) db.exec(`PRAGMA encoding = '${options.encoding}'`)
  db.exec(`PRAGMA journal_mode = ${options.journal ?? 'WAL'}`)
  db.exec(`CREATE TABLE IF NOT EXISTS ${options.table ?? EXCHANGE_TABLE}; CREATE TABLE IF NOT EXISTS ${AGGREGATED_TABLE};`)
  const insert = db.prepare('INSERT INTO exchange_candles (exchange, interval, base, quote, close_ts, open, high, low, close, base_volume, quote_volume, source_provider, source_channel, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
  db.exec('BEGIN')
  for (const r of rows) insert.run(...r)
  db.exec('COMMIT')
  db.close()
  return path
}

const STEP: Record<string, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000, '7x': 7_000 }
/** Prices that are whole numbers (SQLite stores them as integers of 0 to 8 bytes), and others. */
const PRICES = [0, 5, -3, 1, 127, 128, -32769, 8_388_608, 2 ** 31, 2 ** 40 + 1, -(2 ** 47), 1e15, 2 ** 53, 0.1, 33_435.37, 1e-300, 1.7e308, -0]
const PROVIDERS = ['market-candles-sim', 'other', 'p'.repeat(80), 'ßpäter']
const CHANNELS = ['websocket', 'rest', 'ws']
const FLAGS = ['late', 'outlier_excluded', '', 'spätes 🕒']

/** `count` rows of one series from `start` on its grid, some grid points skipped, the source and flag changing now and then. */
function series(next: () => number, key: [string, string, string, string], count: number, start = Date.parse('2025-01-01T00:00:00Z')): Row[] {
  const rows: Row[] = []
  let t = start
  let provider = PROVIDERS[0]!
  let channel = CHANNELS[0]!
  for (let i = 0; i < count; i++) {
    t += STEP[key[1]]! * (next() < 0.05 ? 2 + Math.floor(next() * 5) : 1)
    if (next() < 0.02) provider = PROVIDERS[Math.floor(next() * PROVIDERS.length)]!
    if (next() < 0.02) channel = CHANNELS[Math.floor(next() * CHANNELS.length)]!
    const flag = next() < 0.03 ? FLAGS[Math.floor(next() * FLAGS.length)]! : null
    const price = () => (next() < 0.3 ? PRICES[Math.floor(next() * PRICES.length)]! : Math.round(next() * 1e8) / 1e4)
    rows.push([...key, new Date(t).toISOString().replace('.000Z', 'Z'), price(), price(), price(), price(), price(), price(), provider, channel, flag])
  }
  return rows
}

/** Many series: names of one byte, of several UTF-8 bytes, of more than 57 bytes (a two-byte serial type), cases apart, an interval the service does not know. */
function manySeries(seed: number): Row[] {
  const next = seededRandom(seed)
  const exchanges = ['bitstamp', 'kraken', 'A', 'a', 'ünïcødé-börse', 'x'.repeat(70)]
  const intervals = ['1m', '1h', '1d', '7x']
  const rows: Row[] = []
  for (const exchange of exchanges) {
    for (const interval of intervals) {
      if (next() < 0.4) continue
      for (const [base, quote] of [['BTC', 'USD'], ['ETH', 'EUR'], ['BTC', 'EUR']] as const) {
        if (next() < 0.3) continue
        rows.push(...series(next, [exchange, interval, base, quote], 1 + Math.floor(next() * 400)))
      }
    }
  }
  return rows
}

/** Columns as plain values: every field, the typed arrays' values and capacity, whether all runs share one list of sources. */
function plain(runs: ExchangeColumns[] | undefined) {
  if (runs === undefined) return undefined
  const values = (a: Float64Array | Uint32Array) => ({ values: Array.from(a), capacity: a.buffer.byteLength / a.BYTES_PER_ELEMENT })
  return {
    shared: runs.every((r) => r.sources === runs[0]!.sources),
    sources: runs[0]?.sources.map((s) => ({ ...s })),
    runs: runs.map((r) => ({
      key: [r.exchange, r.interval, r.base, r.quote],
      length: r.length,
      ts: values(r.ts),
      open: values(r.open),
      high: values(r.high),
      low: values(r.low),
      close: values(r.close),
      baseVolume: values(r.baseVolume),
      quoteVolume: values(r.quoteVolume),
      source: values(r.source),
    })),
  }
}

/** The direct reader takes the file and gives exactly what node:sqlite's query gives. */
function expectSameAsQuery(path: string): ExchangeColumns[] {
  const direct = readSqliteBtree(path)
  expect(direct).toBeDefined()
  expect(plain(direct)).toEqual(plain(readSqliteColumnsByQuery(path)))
  return direct!
}

/** The direct reader steps aside; readSqliteColumns then gives node:sqlite's answer. */
function expectFallback(path: string): void {
  expect(readSqliteBtree(path)).toBeUndefined()
  expect(plain(readSqliteColumns(path))).toEqual(plain(readSqliteColumnsByQuery(path)))
}

describe('the direct reader of an export SQLite file gives exactly the columns node:sqlite gives', () => {
  test('files the CLI export wrote (two pairs)', () => {
    const runs = expectSameAsQuery(cli.exchange)
    expect(runs.map((r) => `${r.exchange} ${r.base}/${r.quote} ${r.interval} ${r.length}`)).toEqual(['bitstamp BTC/USD 1h 1753', 'bitstamp ETH/USD 1h 1753'])
  })

  test('many series: names of several UTF-8 bytes and of more than 57 bytes, sources and flags changing mid-series, whole-number REALs (0, 5.0, 2^40 + 1, -0)', () => {
    for (const seed of [1, 2, 3]) {
      const rows = manySeries(seed)
      const runs = expectSameAsQuery(build(`many-${seed}.sqlite`, rows))
      expect(runs.reduce((n, r) => n + r.length, 0)).toBe(rows.length)
      expect(runs[0]!.sources.length).toBeGreaterThan(5)
    }
  })

  test('page sizes 4096 and 65536, a rollback-journal file, one big series over interior pages', () => {
    const next = seededRandom(7)
    const big = series(next, ['bitstamp', '1m', 'BTC', 'USD'], 30_000)
    const around = [...series(next, ['a', '1h', 'BTC', 'USD'], 50), ...big, ...series(next, ['bitstamp', '1m', 'BTC', 'USDT'], 20)]
    for (const pageSize of [4096, 65536]) expectSameAsQuery(build(`big-${pageSize}.sqlite`, around, { pageSize }))
    expectSameAsQuery(build('rollback.sqlite', manySeries(4), { journal: 'DELETE', pageSize: 4096 }))
    // An interior level at 4 KB pages: more than the root's cells.
    expect(statSync(join(dir, 'big-4096.sqlite')).size / 4096).toBeGreaterThan(500)
  })

  test('an empty table, and an aggregated table whose rows were deleted', () => {
    expect(expectSameAsQuery(build('empty.sqlite', []))).toEqual([])
    const path = build('agg-deleted.sqlite', manySeries(5))
    const db = new DatabaseSync(path)
    db.exec("INSERT INTO aggregated_candles VALUES ('omm_vwap_v1', '1h', 'BTC', 'USD', '2025-01-01T01:00:00Z', 1, 1, 1, 1, 1, 1, '[\"bitstamp\"]', NULL)")
    db.exec('DELETE FROM aggregated_candles')
    db.close()
    expectSameAsQuery(path)
  })

  test('close_ts read from its bytes: exactly the texts CloseTimeReader takes, the same times', () => {
    const template = '2024-02-29T23:59:59Z'
    const alphabet = '0123456789-T:Z. x'
    const text = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: 19 }), fc.constantFrom(...alphabet), fc.integer({ min: 0, max: 19 }), fc.constantFrom(...alphabet)).map(([i, a, j, b]) => {
        const chars = template.split('')
        chars[i] = a
        chars[j] = b
        return chars.join('')
      }),
      fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19) + 'Z'),
      fc.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
    )
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (texts) => {
        const reader = new CloseTimeReader()
        const bytes = new CloseTimeBytes()
        for (const t of texts) {
          const expected = reader.of(t)
          const got = bytes.of(new TextEncoder().encode(t), 0)
          expect(Number.isNaN(got) ? undefined : got).toBe(expected)
        }
      }),
      { numRuns: 3000 },
    )
  })
})

describe('the direct reader steps aside (undefined) for anything not exactly as the export writes it; node:sqlite reads it', () => {
  test('uncheckpointed rows in a -wal file; a -journal file beside the database', () => {
    const path = build('wal.sqlite', manySeries(6))
    const writer = new DatabaseSync(path)
    writer.exec('PRAGMA wal_autocheckpoint = 0')
    writer.prepare('INSERT INTO exchange_candles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run('zz-late', '1h', 'BTC', 'USD', '2025-06-01T00:00:00Z', 1, 2, 0.5, 1.5, 3, 4.5, 'p', 'rest', null)
    try {
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0)
      expectFallback(path)
      expect(readSqliteColumns(path)!.some((r) => r.exchange === 'zz-late')).toBe(true)
    } finally {
      writer.close()
    }
    // Checkpointed on close: the file alone holds it all again.
    expect(expectSameAsQuery(path).some((r) => r.exchange === 'zz-late')).toBe(true)
    writeFileSync(`${path}-journal`, '')
    expectFallback(path)
  })

  test('an aggregated row (node:sqlite then answers undefined too: the object path reads the file)', () => {
    expect(readSqliteBtree(cli.both)).toBeUndefined()
    expect(readSqliteColumns(cli.both)).toBeUndefined()
  })

  test('an unexpected schema: the columns in another order, a collation, a table with rowids', () => {
    const rows = manySeries(8)
    const reordered = EXCHANGE_TABLE.replace('source_provider TEXT NOT NULL, source_channel TEXT NOT NULL, flag TEXT', 'flag TEXT, source_channel TEXT NOT NULL, source_provider TEXT NOT NULL')
    expect(reordered).not.toBe(EXCHANGE_TABLE)
    expectFallback(build('reordered.sqlite', rows, { table: reordered }))
    const nocase = EXCHANGE_TABLE.replace('exchange TEXT NOT NULL', 'exchange TEXT NOT NULL COLLATE NOCASE')
    // Without exchange 'a': it equals 'A' under NOCASE.
    expectFallback(build('nocase.sqlite', rows.filter((r) => r[0] !== 'a'), { table: nocase }))
    expectFallback(build('rowid.sqlite', rows, { table: EXCHANGE_TABLE.replace(') WITHOUT ROWID', ')') }))
  })

  test('a text encoding other than UTF-8', () => {
    const path = build('utf16.sqlite', manySeries(9), { encoding: 'UTF-16le' })
    expect(readFileSync(path).readUInt32BE(56)).toBe(2)
    expectFallback(path)
  })

  test('a row too big for its page (its payload spills to an overflow page)', () => {
    const rows = manySeries(10)
    rows[5]![13] = 'f'.repeat(5000)
    expectFallback(build('overflow.sqlite', rows))
  })

  test('a close_ts not in the service form: both readers refuse it (the object path names it)', () => {
    const rows = manySeries(11)
    rows[3]![4] = rows[3]![4].replace('Z', '.000Z')
    const path = build('fraction.sqlite', rows)
    expect(readSqliteBtree(path)).toBeUndefined()
    expect(readSqliteColumnsByQuery(path)).toBeUndefined()
  })
})

describe('a corrupt file: the direct reader never throws nor hangs; load gives a clear error or a result', () => {
  test('random bytes overwritten in its pages (seeded, at most 8 bytes a file)', async () => {
    const next = seededRandom(12)
    const rows = [...series(next, ['bitstamp', '1h', 'BTC', 'USD'], 3000), ...series(next, ['kraken', '1d', 'ETH', 'EUR'], 500)]
    const good = build('good.sqlite', rows, { pageSize: 4096 })
    const size = statSync(good).size
    const outcomes = { columns: 0, undefined: 0, loaded: 0, refused: 0 }
    for (let trial = 0; trial < 80; trial++) {
      const bad = join(dir, `corrupt-${trial}.sqlite`)
      copyFileSync(good, bad)
      const fd = openSync(bad, 'r+')
      for (let k = 1 + Math.floor(next() * 8); k > 0; k--) {
        // Past the file header, on page 1 (sqlite_master) or any b-tree page after it.
        const at = 100 + Math.floor(next() * (size - 100))
        writeSync(fd, new Uint8Array([Math.floor(next() * 256)]), 0, 1, at)
      }
      closeSync(fd)
      const runs = readSqliteBtree(bad)
      expect(runs === undefined || Array.isArray(runs)).toBe(true)
      outcomes[runs === undefined ? 'undefined' : 'columns']++
      const service = createMockService({ data: { exchanges: [], assets: [], candles: [] }, rateLimit: false })
      try {
        await service.data.load(bad)
        outcomes.loaded++
      } catch (error) {
        expect(error).toBeInstanceOf(DataError)
        expect((error as Error).message).toContain(basename(bad))
        outcomes.refused++
      }
      rmSync(bad)
    }
    // Both ways met: corruption the reader noticed, and corruption of values alone.
    expect(outcomes.undefined).toBeGreaterThan(0)
    expect(outcomes.columns).toBeGreaterThan(0)
  }, 120_000)
})

describe('record values: every integer serial type as the number SQLite converts it to', () => {
  test('1 to 6 bytes big-endian, two’s complement; 8 bytes rounded once as (double) int64; 8 and 9 are 0 and 1', () => {
    const cases: Array<[number, bigint]> = [
      [1, -128n], [1, 127n], [2, -32768n], [2, 258n], [3, -8_388_608n], [3, 8_388_607n], [4, -(2n ** 31n)], [4, 2n ** 31n - 1n],
      [5, -(2n ** 47n)], [5, 2n ** 47n - 1n], [6, -(2n ** 63n)], [6, 2n ** 63n - 1n], [6, 2n ** 53n + 1n], [6, -(2n ** 53n) - 3n], [6, 9_007_199_254_740_993n * 3n],
    ]
    const size = [0, 1, 2, 3, 4, 6, 8]
    for (const [type, value] of cases) {
      const n = size[type]!
      const b = new Uint8Array(16)
      for (let i = 0; i < n; i++) b[3 + i] = Number((BigInt.asUintN(8 * n, value) >> BigInt(8 * (n - 1 - i))) & 0xffn)
      expect(numberOf(b, new DataView(b.buffer), type, 3)).toBe(Number(value))
    }
    const b = new Uint8Array(8)
    new DataView(b.buffer).setFloat64(0, -1.5e-300)
    expect(numberOf(b, new DataView(b.buffer), 7, 0)).toBe(-1.5e-300)
    expect(numberOf(b, new DataView(b.buffer), 8, 0)).toBe(0)
    expect(numberOf(b, new DataView(b.buffer), 9, 0)).toBe(1)
    for (const type of [0, 10, 11, 13, 12]) expect(() => numberOf(b, new DataView(b.buffer), type, 0)).toThrow()
  })
})
