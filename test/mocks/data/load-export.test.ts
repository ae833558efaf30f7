import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DataError } from '../../../mocks/data/data-error.js'
import { createMockService, type MockService } from '../../../mocks/core/service/service.js'
import { readExport } from '../../../mocks/data/export-files/index.js'
import { DataError as PublicDataError, LoadError as PublicLoadError } from '../../../mocks/index.js'
import { sqliteRows } from '../../export/sinks/read-output.js'
import { exportInProcess } from '../../export/export-in-process.js'
import { cliInProcess } from '../../cli/cli-in-process.js'
import { startCli, waitFor } from '../../export/run-cli.js'

/*
 * Real files from the real CLI (`node dist/cli.js export --mock`): two pages of each kind per format,
 * loaded into a service that starts with no data at all, whose answers must equal the default
 * dataset's, page for page.
 */
const START = '2025-01-01T00:00:00Z'
const END = '2025-03-15T00:00:00Z' // 1753 1h candles: two pages of 1000
const HEADERS = { 'x-api-key': 'demo-enterprise-key' }
const EXCHANGE = ['--exchange', 'bitstamp', '--pair', 'BTC/USD']
const AGGREGATED = ['--aggregated', '--pair', 'BTC/USD']

let dir: string
const files = { sqlite: '', csv: '', aggCsv: '', jsonl: '', aggJsonl: '', parquet: '' }

async function exportTo(kind: string[], out: string, format: string[] = []): Promise<void> {
  // In process (runExport, what the CLI's export command runs, --mock's embedded service included): the files are what the tests read.
  const result = await exportInProcess(['--mock', ...kind, '--interval', '1h', '--start', START, '--end', END, '--out', out, ...format, '--quiet'], {})
  if (result.code !== 0) throw new Error(`export to ${out} failed (${result.code}): ${result.stderr}`)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'load-export-'))
  Object.assign(files, {
    sqlite: join(dir, 'rec.sqlite'),
    csv: join(dir, 'ex.csv'),
    aggCsv: join(dir, 'agg.csv'),
    jsonl: join(dir, 'ex.jsonl'),
    aggJsonl: join(dir, 'agg.jsonl'),
    parquet: join(dir, 'dataset'),
  })
  // One file of both kinds for SQLite and Parquet; one per kind for CSV and JSON Lines (a header each).
  await Promise.all([
    exportTo(EXCHANGE, files.sqlite).then(() => exportTo(AGGREGATED, files.sqlite)),
    exportTo(EXCHANGE, files.parquet, ['--format', 'parquet']).then(() => exportTo(AGGREGATED, files.parquet, ['--format', 'parquet'])),
    exportTo(EXCHANGE, files.csv).then(() => exportTo(AGGREGATED, files.aggCsv)),
    exportTo(EXCHANGE, files.jsonl).then(() => exportTo(AGGREGATED, files.aggJsonl)),
  ])
}, 180_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A copy of an exported file, edited, in the test's directory. */
function edited(from: string, name: string, edit: (text: string) => string): string {
  const to = join(dir, name)
  writeFileSync(to, edit(readFileSync(from, 'utf8')))
  return to
}

// No rate limit: a test asks for many pages in a row, and a 429 is not what is compared.
const empty = () => createMockService({ data: { exchanges: [], assets: [], candles: [] }, rateLimit: false })
const reference = createMockService({ rateLimit: false })

const PAGES = [
  `/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=${START}&end=${END}&limit=1000`,
  `/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=2025-02-11T16:00:00Z&end=${END}&limit=1000`,
  `/v1/aggregated_ohlcv?method=omm_vwap_v1&interval=1h&base=BTC&quote=USD&start=${START}&end=${END}&limit=1000`,
  `/v1/aggregated_ohlcv?method=omm_vwap_v1&interval=1h&base=BTC&quote=USD&start=2025-02-11T16:00:00Z&end=${END}&limit=1000`,
]

async function pages(service: MockService): Promise<unknown[]> {
  const out = []
  for (const url of PAGES) {
    const res = await service.handle({ method: 'GET', url, headers: HEADERS })
    out.push({ status: res.status, body: res.body })
  }
  return out
}

describe('load(source): a file market-candles export wrote is served as it was recorded', () => {
  const cases: Array<[string, () => string[]]> = [
    ['SQLite (both tables of one file)', () => [files.sqlite]],
    ['CSV (one file per kind)', () => [files.csv, files.aggCsv]],
    ['JSON Lines (one file per kind)', () => [files.jsonl, files.aggJsonl]],
    ['a Parquet dataset directory (both kinds)', () => [files.parquet]],
  ]
  for (const [name, sources] of cases) {
    test(`${name}: the API's pages equal the recorded ones, exchange and aggregated`, async () => {
      const service = empty()
      let loaded = 0
      for (const source of sources()) loaded += (await service.data.load(source)).candles
      expect(loaded).toBe(2 * 1753)
      const expected = await pages(reference)
      expect((expected[0] as { body: unknown[] }).body).toHaveLength(1000)
      expect((expected[1] as { body: unknown[] }).body).toHaveLength(753)
      expect(await pages(service)).toEqual(expected)
    })
  }

  test('SQLite: every field of every row as the table holds it, where the source, the contributors or the flag change row by row', async () => {
    const db = join(dir, 'mixed.sqlite')
    copyFileSync(files.sqlite, db)
    const edit = new DatabaseSync(db)
    // Changes inside a chunk, at its edges, and runs that come back to the value before.
    edit.exec(`UPDATE exchange_candles SET source_channel = 'rest' WHERE close_ts BETWEEN '2025-01-10T00:00:00Z' AND '2025-01-10T05:00:00Z' OR close_ts = '2025-02-01T00:00:00Z';
      UPDATE exchange_candles SET flag = 'outlier' WHERE close_ts IN ('2025-01-10T03:00:00Z', '2025-01-20T00:00:00Z');
      UPDATE exchange_candles SET source_provider = 'other' WHERE close_ts >= '2025-03-01T00:00:00Z';
      UPDATE aggregated_candles SET exchanges = '["bitstamp","kraken"]' WHERE close_ts BETWEEN '2025-01-05T00:00:00Z' AND '2025-01-05T02:00:00Z';
      UPDATE aggregated_candles SET flag = 'new_flag' WHERE close_ts = '2025-01-05T01:00:00Z'`)
    edit.close()
    const read = await readExport(db)
    const stored = [...sqliteRows(db, 'exchange_candles'), ...sqliteRows(db, 'aggregated_candles').map((r) => ({ ...r, exchanges: JSON.parse(r.exchanges as string) }))]
    expect(read).toEqual(stored)
    expect(read.filter((c) => 'exchange' in c && c.source_channel === 'rest')).toHaveLength(7)
    expect(read.filter((c) => c.flag === 'outlier' && 'exchange' in c && c.close_ts === '2025-01-10T03:00:00Z')).toHaveLength(1)
  })

  test('a file: URL and a file: URL text are paths too', async () => {
    const service = empty()
    expect((await service.data.load(pathToFileURL(files.csv))).candles).toBe(1753)
    expect((await service.data.load(pathToFileURL(files.jsonl).href)).candles).toBe(1753)
  })

  test('exchanges and assets the service does not know are made from the data: an exchange opens on the day its first candle opens', async () => {
    const service = empty()
    await service.data.load(files.sqlite)
    const exchanges = await service.handle({ method: 'GET', url: '/v1/exchanges', headers: HEADERS })
    expect(exchanges.body).toEqual([{ name: 'bitstamp', creation_date: '2024-12-31', closing_date: null }]) // the 00:00 candle opened the day before
    const assets = (await service.handle({ method: 'GET', url: '/v1/assets', headers: HEADERS })).body as Array<{ ticker: string }>
    expect(assets.map((a) => a.ticker).sort()).toEqual(['BTC', 'USD'])
    expect(assets).toContainEqual({ name: 'Bitcoin', asset_type: 'CRYPTO', ticker: 'BTC' })
  })

  test('known exchanges keep their records; a session loads for itself alone', async () => {
    const service = createMockService({ rateLimit: false })
    const session = service.session('replay')
    await session.data.load(files.csv)
    const listed = (await session.handle({ method: 'GET', url: '/v1/exchanges', headers: HEADERS })).body as Array<{ name: string; creation_date: string }>
    expect(listed.find((e) => e.name === 'bitstamp')?.creation_date).toBe('2011-08-01')
    const other = empty()
    const sessionOfEmpty = other.session('a')
    await sessionOfEmpty.data.load(files.csv)
    expect((await other.handle({ method: 'GET', url: PAGES[0]!, headers: HEADERS })).status).not.toBe(200)
    expect((await sessionOfEmpty.handle({ method: 'GET', url: PAGES[0]!, headers: HEADERS })).status).toBe(200)
  })

  test('rows in memory: API candles, or rows shaped like the export (CSV text, a flag as an empty field, exchanges as JSON text)', async () => {
    const csvRow = { exchange: 'bitstamp', interval: '1d', base: 'BTC', quote: 'USD', close_ts: '2025-01-02T00:00:00Z', open: '100', high: '110', low: '95', close: '105', base_volume: '2', quote_volume: '200', source_provider: 'p', source_channel: 'rest', flag: '' }
    const aggRow = { method: 'omm_vwap_v1', interval: '1d', base: 'BTC', quote: 'USD', close_ts: new Date('2025-01-02T00:00:00Z'), open: 100, high: 110, low: 95, close: 105, base_volume: 2, quote_volume: 200, exchanges: '["bitstamp"]', flag: null }
    expect(await readExport([csvRow, aggRow])).toEqual([
      { ...csvRow, open: 100, high: 110, low: 95, close: 105, base_volume: 2, quote_volume: 200, flag: null },
      { ...aggRow, close_ts: '2025-01-02T00:00:00Z', exchanges: ['bitstamp'] },
    ])
    // `exchange: undefined` is no exchange, as putCandles reads it.
    expect(await readExport([{ ...aggRow, exchange: undefined }])).toEqual([{ ...aggRow, close_ts: '2025-01-02T00:00:00Z', exchanges: ['bitstamp'] }])
    const service = empty()
    expect((await service.data.load([csvRow, aggRow])).candles).toBe(2)
  })
})

describe('load(source): every bad source is refused with its file and line, and nothing changes', () => {
  const refusal = async (source: Parameters<MockService['data']['load']>[0]) => {
    const service = empty()
    const error = await service.data.load(source).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(DataError)
    // Nothing changed: still no exchange.
    expect((await service.handle({ method: 'GET', url: '/v1/exchanges', headers: HEADERS })).body).toEqual([])
    return (error as Error).message
  }
  const copy = (from: string, name: string, edit: (text: string) => string) => {
    const to = join(dir, name)
    writeFileSync(to, edit(readFileSync(from, 'utf8')))
    return to
  }

  test('a missing file, a name of no known format', async () => {
    expect(await refusal(join(dir, 'nope.sqlite'))).toBe(`${join(dir, 'nope.sqlite')}: cannot read it (no such file or directory)`)
    // What users catch, from the public entry (docs/testing.md): a LoadError, a kind of DataError, naming the file.
    const missing = await empty().data.load(join(dir, 'nope.sqlite')).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(PublicLoadError)
    expect(missing).toBeInstanceOf(PublicDataError)
    expect(missing).toMatchObject({ name: 'LoadError', file: join(dir, 'nope.sqlite') })
    const txt = join(dir, 'candles.txt')
    writeFileSync(txt, 'x')
    expect(await refusal(txt)).toMatch(/candles\.txt: cannot tell its format from the name: .*\.sqlite or \.db \(SQLite\), \.csv, \.jsonl, or a Parquet dataset's directory/)
    expect(await refusal('https://example.com/x.csv')).toMatch(/not a file: URL/)
  })

  test('a CSV file with another header', async () => {
    const other = copy(files.csv, 'other.csv', (t) => t.replace(/^exchange,/, 'venue,'))
    expect(await refusal(other)).toMatch(/other\.csv: not a CSV file of market-candles export: its header is "venue,interval/)
  })

  test('a corrupt row names its line: CSV, JSON Lines', async () => {
    const csv = copy(files.csv, 'corrupt.csv', (t) => {
      const lines = t.split('\n')
      const f = lines[4]!.split(',')
      f[5] = 'abc'
      lines[4] = f.join(',')
      return lines.join('\n')
    })
    expect(await refusal(csv)).toBe(`${csv} line 5: open "abc" is not a number`)
    const short = copy(files.csv, 'short.csv', (t) => t.replace(/\n[^\n]*\n$/, '\nbitstamp,1h,BTC\n'))
    expect(await refusal(short)).toBe(`${short} line 1754: 3 fields, expected 14`)
    const jsonl = copy(files.jsonl, 'corrupt.jsonl', (t) => t.split('\n').map((l, i) => (i === 2 ? l.slice(0, 30) : l)).join('\n'))
    expect(await refusal(jsonl)).toMatch(new RegExp(`^${jsonl.replace(/[.\\]/g, '\\$&')} line 3: not JSON`))
    const misspelt = copy(files.jsonl, 'field.jsonl', (t) => t.replace('"base_volume":', '"base_vol":'))
    expect(await refusal(misspelt)).toBe(`${misspelt} line 1: base_volume is missing`)
  })

  test('a candle that breaks a rule names its file and line (CSV) or its series and close time (SQLite)', async () => {
    const csv = copy(files.csv, 'rule.csv', (t) => {
      const lines = t.split('\n')
      const f = lines[9]!.split(',')
      f[7] = String(Number(f[6]) + 1) // low above high
      lines[9] = f.join(',')
      return lines.join('\n')
    })
    expect(await refusal(csv)).toMatch(new RegExp(`candles\\[8\\]\\.low: low .* is above high .* \\(${csv.replace(/[.\\]/g, '\\$&')} line 10: bitstamp BTC/USD 1h 2025-01-01T08:00:00Z\\)`))
    const db = join(dir, 'rule.sqlite')
    copyFileSync(files.sqlite, db)
    const edit = new DatabaseSync(db)
    edit.exec("UPDATE exchange_candles SET low = high + 1 WHERE close_ts = '2025-02-01T00:00:00Z'")
    edit.close()
    expect(await refusal(db)).toMatch(/candles\[744\]\.low: low .* is above high .* \(.*rule\.sqlite: bitstamp BTC\/USD 1h 2025-02-01T00:00:00Z\)/)
  })

  test('a file that is not what the export writes: SQLite without its tables, a directory without Parquet files', async () => {
    const db = join(dir, 'other.db')
    const other = new DatabaseSync(db)
    other.exec('CREATE TABLE t (x)')
    other.close()
    expect(await refusal(db)).toMatch(/other\.db: holds neither an exchange_candles nor an aggregated_candles table/)
    const notDb = join(dir, 'text.sqlite')
    writeFileSync(notDb, 'not a database at all, just text that is long enough to be read as a header')
    expect(await refusal(notDb)).toMatch(/text\.sqlite: not a SQLite database|text\.sqlite: cannot open it/)
    const emptyDir = mkdtempSync(join(dir, 'empty-'))
    expect(await refusal(emptyDir)).toMatch(/a directory without \.parquet files/)
  })

  test('Parquet: an unfinished part a killed export left (.parquet.tmp) is skipped; a corrupt part file is named', async () => {
    const dataset = join(dir, 'dataset-copy')
    cpSync(files.parquet, dataset, { recursive: true })
    const folder = join(dataset, 'exchange=bitstamp', 'base=BTC', 'quote=USD', 'interval=1h')
    writeFileSync(join(folder, 'part-000009.parquet.tmp'), 'half a part')
    const service = empty()
    expect((await service.data.load(dataset)).candles).toBe(2 * 1753)
    writeFileSync(join(folder, 'part-000009.parquet'), 'not parquet at all')
    expect(await refusal(dataset)).toMatch(/exchange=bitstamp.base=BTC.quote=USD.interval=1h.part-000009\.parquet: not a readable Parquet file/)
  })

  test('in a browser (no process.getBuiltinModule) a path is refused: pass rows', async () => {
    const proc = process as { getBuiltinModule?: unknown }
    const saved = proc.getBuiltinModule
    proc.getBuiltinModule = undefined
    try {
      await expect(readExport(files.csv)).rejects.toThrow(/reading files needs Node .*; in a browser, pass rows/)
    } finally {
      proc.getBuiltinModule = saved
    }
  })

  test('rows in memory: the bad one is named by its index', async () => {
    expect(await refusal([{ exchange: 'x', interval: '1h' }])).toMatch(/rows\[0\]: open is missing/)
  })
})

describe('serve --data FILE: an export is served alone, its exchanges and assets made from its candles', () => {
  test('serve --data file.sqlite answers the recorded pages', async () => {
    const cli = startCli(['serve', '--port', '0', '--data', files.sqlite], {}, 60_000)
    try {
      await waitFor(() => cli.output().stdout.includes('\n'), 30_000, 'the listening line')
      const url = cli.output().stdout.split('\n')[0]!.replace('listening on ', '')
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const expected = await pages(reference)
      const served = []
      for (const path of PAGES) {
        const res = await fetch(`${url}${path}`, { headers: HEADERS })
        served.push({ status: res.status, body: await res.json() })
      }
      expect(served).toEqual(expected)
      // Only what was recorded: the default dataset's ETH/USD is not there.
      const eth = await fetch(`${url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=ETH&quote=USD&limit=1`, { headers: HEADERS })
      expect(eth.status).not.toBe(200)
      expect(cli.output().stdout).toContain(`dataset: ${files.sqlite}, 3506 candles recorded by market-candles export`)
    } finally {
      cli.child.kill('SIGTERM')
      expect((await cli.result).code).toBe(0)
    }
  }, 60_000)

  test('files another tool wrote (D13): close_ts in any ISO 8601 UTC form, a null field left out, extra fields and columns ignored, CSV columns in any order', async () => {
    // JSON Lines: `.000000+00:00` and `+00:00` close times, `flag` left out, an `id` of its own.
    const jsonl = edited(files.jsonl, 'other-tool.jsonl', (t) =>
      t
        .split('\n')
        .map((line, i) => line.replace(/Z",/, i % 2 ? '.000000+00:00",' : '+00:00",').replace(',"flag":null', '').replace(/^\{/, `{"id":${i},`))
        .join('\n'),
    )
    // CSV: close_ts first, an extra column, `flag` left out where no row has one, `+00:00` close times.
    const csv = edited(files.csv, 'other-tool.csv', (t) => {
      const rows = t.trimEnd().split('\n').map((l) => l.split(','))
      const noFlag = rows.slice(1).every((r) => r[13] === '')
      return rows
        .map((r, i) => [r[4]!.replace(/Z$/, i === 0 ? '' : '+00:00'), 'extra', ...r.slice(0, 4), ...r.slice(5, noFlag ? 13 : 14)].map((v, k) => (k === 1 ? (i === 0 ? 'note' : `n${i}`) : v)).join(','))
        .join('\n') + '\n'
    })
    const expected = (await pages(reference)).slice(0, 2)
    for (const file of [jsonl, csv]) {
      const cli = startCli(['serve', '--port', '0', '--data', file], {}, 60_000)
      try {
        await waitFor(() => cli.output().stdout.includes('\n') || cli.child.exitCode !== null, 30_000, 'the listening line')
        expect(cli.output().stderr).toBe('')
        const url = cli.output().stdout.split('\n')[0]!.replace('listening on ', '')
        const served = []
        for (const path of PAGES.slice(0, 2)) {
          const res = await fetch(`${url}${path}`, { headers: HEADERS })
          served.push({ status: res.status, body: await res.json() })
        }
        expect(served).toEqual(expected)
      } finally {
        cli.child.kill('SIGTERM')
        await cli.result
      }
    }
  }, 90_000)

  test('a bad file: exit 1, the message names the file and line, no stack', async () => {
    const bad = join(dir, 'serve-bad.csv')
    const lines = readFileSync(files.csv, 'utf8').split('\n')
    lines[2] = lines[2]!.replace(',websocket,', ',,')
    writeFileSync(bad, lines.join('\n'))
    // In process (what the bin runs): `serve --data` as a process is the tests' above.
    const result = await cliInProcess(['serve', '--port', '0', '--data', bad])
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(`market-candles: --data ${bad} line 3: source_channel "" is not a non-empty string`)
    const missing = await cliInProcess(['serve', '--port', '0', '--data', join(dir, 'gone.sqlite')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/--data .*gone\.sqlite: cannot read it \(no such file or directory\)/)
    expect(missing.stderr).not.toMatch(/\n\s+at /)
  }, 60_000)
})
