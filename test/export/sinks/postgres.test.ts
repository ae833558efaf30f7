/**
 * `market-candles export --out postgres://...` against a real PostgreSQL server (Debian's
 * postgresql package; .ci/run installs it), started on a temporary data directory and a free port
 * by test/support/postgres-server.ts. Each test writes into a database of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { copyText } from '../../../cli/export/sinks/postgres/postgres-copy-text.js'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'
import { POSTGRES_MISSING, PG_PASSWORD, startPostgres, type RunningPostgres } from '../../support/postgres-server.js'
import { sqliteRows } from './read-output.js'
import { freshDatabase, pgRows, withClient } from './read-postgres.js'
import { exportInProcess } from '../export-in-process.js'
import { runCli, startCli, waitFor, type CliResult } from '../run-cli.js'
import { finished } from 'node:stream/promises'
import { from as copyFrom } from 'pg-copy-streams'

const NOW = '2025-01-01T00:00:00Z'
// 2 pairs × 4,345 1h candles: 10 pages; at the client's default 10 requests/s about 1 s.
const RANGE = ['--interval', '1h', '--start', '2024-01-01', '--end', '2024-06-30']
const PAIRS = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--pair', 'ETH/USD']
const AGG = ['--aggregated', '--method', 'omm_vwap_v1', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2022-10-01', '--end', '2023-01-31']

let pgServer: RunningPostgres
let service: RunningMockServer
let dir: string
let env: Record<string, string>
const outputs: CliResult[] = []

/**
 * Runs `market-candles export ARGS` and keeps its output, every byte of which is checked for the
 * password at the end. In process (runExport, what the CLI's export command runs: the tests check the
 * tables, the messages and the exit code) unless `asProcess`: the two exporters at once are processes,
 * as users run them; the interrupted runs are too (startAndWaitForData).
 */
async function run(args: string[], extraEnv: Record<string, string> = {}, asProcess = false): Promise<CliResult> {
  const r = asProcess ? await runCli(['export', ...args], { ...env, ...extraEnv }, 60_000) : { ...(await exportInProcess(args, { ...env, ...extraEnv })), signal: null }
  outputs.push(r)
  return r
}

/** Starts the export and waits until it has committed at least one page. */
async function startAndWaitForData(args: string[]) {
  const cli = startCli(['export', ...args, '--progress-interval', '0.1'], env, 60_000)
  await waitFor(() => /: [1-9]\d* ?\/?\d* candles/.test(cli.output().stderr) || cli.child.exitCode !== null, 20_000, 'a first page')
  return cli
}

const keys = (rows: Array<Record<string, unknown>>) => rows.map((r) => `${r.exchange}|${r.base}/${r.quote}|${r.close_ts}`)

let sqliteFull: Promise<Record<string, unknown>[]> | undefined
/** The SQLite export of PAIRS × RANGE (run once): what every PostgreSQL run must equal. */
function sqliteReference(): Promise<Record<string, unknown>[]> {
  sqliteFull ??= (async () => {
    const out = join(dir, 'reference.sqlite')
    expect((await run([...PAIRS, ...RANGE, '--out', out, '--quiet'])).code).toBe(0)
    return sqliteRows(out, 'exchange_candles')
  })()
  return sqliteFull
}

// The tests wait more than they compute (each export is paced at 10 requests/s by the service's
// 40 ms latency and the client's limit), and each writes its own database: they run side by side, but
// the one that stops the server runs alone, and the password check runs after all of them.
describe.skipIf(POSTGRES_MISSING !== undefined)(`market-candles export into PostgreSQL${POSTGRES_MISSING ? ` (SKIPPED: ${POSTGRES_MISSING})` : ''}`, { concurrent: true }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'export-pg-'))
    ;[pgServer, service] = await Promise.all([startPostgres(), startMockServer({ port: 0, now: NOW, latency: 40, rateLimit: false })])
    env = { MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: service.url }
  }, 60_000)
  afterAll(async () => {
    await Promise.all([pgServer?.destroy(), service?.close()])
    rmSync(dir, { recursive: true, force: true })
  })

  test('the stored rows equal the SQLite export of the same range, field by field (exchange candles)', async () => {
    const url = await freshDatabase(pgServer)
    const r = await run([...PAIRS, ...RANGE, '--out', url])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/done: 2 series, \d+ candles/)
    const rows = await pgRows(url, 'exchange')
    expect(rows.length).toBe(2 * 4_345)
    expect(rows).toEqual(await sqliteReference())
  }, 60_000)

  test('the stored rows equal the SQLite export of the same range, field by field (aggregated candles, exchanges as text[])', async () => {
    const url = await freshDatabase(pgServer)
    const out = join(dir, 'agg.sqlite')
    expect((await run([...AGG, '--out', out, '--quiet'])).code).toBe(0)
    expect((await run([...AGG, '--out', url, '--quiet'])).code).toBe(0)
    const rows = await pgRows(url, 'aggregated')
    expect(rows.length).toBeGreaterThan(2000)
    expect(rows).toEqual(sqliteRows(out, 'aggregated_candles'))
    // a real array in the database: ftx stopped in November 2022
    const counts = await withClient(url, async (c) => (await c.query(`SELECT cardinality(exchanges) AS n, count(*)::int AS rows FROM aggregated_candles GROUP BY 1 ORDER BY 1`)).rows)
    expect(counts.map((x) => x.n)).toEqual([1, 2])
  }, 60_000)

  test('tables are created with the SQLite sink’s columns and primary keys: close_ts timestamptz, prices double precision, exchanges text[]; --pg-schema puts them in that schema', async () => {
    const url = await freshDatabase(pgServer)
    const args = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2024-06-01', '--end', '2024-07-01', '--out', url, '--pg-schema', 'market data', '--quiet']
    expect((await run(args)).code).toBe(0)
    const columns = await withClient(url, async (c) =>
      (await c.query(`SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'market data' AND table_name = 'exchange_candles' ORDER BY ordinal_position`)).rows,
    )
    expect(columns.map((c) => `${c.column_name} ${c.data_type}${c.is_nullable === 'NO' ? ' not null' : ''}`)).toEqual([
      'exchange text not null', 'interval text not null', 'base text not null', 'quote text not null', 'close_ts timestamp with time zone not null',
      'open double precision not null', 'high double precision not null', 'low double precision not null', 'close double precision not null',
      'base_volume double precision not null', 'quote_volume double precision not null', 'source_provider text not null', 'source_channel text not null', 'flag text',
    ])
    const pk = await withClient(url, async (c) =>
      (await c.query(`SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) WHERE i.indrelid = '"market data".exchange_candles'::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`)).rows,
    )
    expect(pk.map((r) => r.attname)).toEqual(['exchange', 'interval', 'base', 'quote', 'close_ts'])
    expect(await pgRows(url, 'exchange', 'market data')).toHaveLength(31)
    // the default schema was left alone
    expect(await withClient(url, async (c) => (await c.query(`SELECT to_regclass('public.exchange_candles') AS t`)).rows[0].t)).toBeNull()
  }, 30_000)

  test('COPY stores every value as it came: backslash, tab, newline, quotes, commas and non-ASCII text, text[] elements, an empty array, a null flag, doubles to the last bit, close_ts before and after 2000', async () => {
    const url = await freshDatabase(pgServer)
    const base = { interval: '1h', base: 'BTC', quote: 'USD', open: 1.5, high: 2.25, low: 0.1 + 0.2, close: 1e-7, base_volume: 123456789.123456789, quote_volume: 1e21 }
    const candles = [
      { ...base, method: 'm\\x\t"y"\n€🙂', close_ts: '1999-12-31T23:59:00Z', exchanges: ['a,b', 'c"d', 'e\\f', 'g\th', '{x}', 'NULL', 'ünï'], flag: null },
      { ...base, method: 'm\\x\t"y"\n€🙂', close_ts: '2024-01-01T01:00:00Z', exchanges: [], flag: 'outlier\r\\N' },
      { ...base, method: 'plain', close_ts: '2038-01-19T03:14:08Z', open: -0.5, high: Number.MAX_VALUE, low: Number.MIN_VALUE, exchanges: ['bitstamp'], flag: 'outlier' },
    ]
    await withClient(url, async (c) => {
      await c.query(`CREATE TABLE t (method text, interval text, base text, quote text, close_ts timestamptz, open float8, high float8, low float8, close float8, base_volume float8, quote_volume float8, exchanges text[], flag text)`)
      const stream = c.query(copyFrom('COPY t FROM STDIN (FORMAT text)'))
      stream.end(copyText('aggregated', candles as never))
      await finished(stream)
      const rows = (await c.query(`SELECT method, interval, base, quote, to_char(close_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS close_ts, open, high, low, close, base_volume, quote_volume, exchanges, flag FROM t ORDER BY close_ts`)).rows
      expect(rows).toEqual(candles)
    })
  })

  test.each(['SIGINT', 'SIGKILL'] as const)(
    'after %s mid-run, every committed page is whole and the same command completes with no gap and no duplicate',
    async (signal) => {
      const url = await freshDatabase(pgServer)
      // Slower than the default (10 pages in about 2.5 s): the signal comes well before the last page.
      const args = [...PAIRS, ...RANGE, '--out', url, '--rate-limit', '4']
      const cli = await startAndWaitForData(args)
      cli.child.kill(signal)
      const r = await cli.result
      outputs.push(r)
      if (signal === 'SIGINT') {
        expect(r.code).toBe(130)
        expect(r.stderr).toContain('Run the same command again to continue')
        // the command to continue with, without the password
        expect(r.stderr).toContain(`--out postgres://postgres@127.0.0.1:${pgServer.port}/`)
      } else expect(r.signal).toBe('SIGKILL')
      const partial = keys(await pgRows(url, 'exchange'))
      const full = keys(await sqliteReference())
      expect(partial.length).toBeGreaterThan(0)
      expect(partial.length).toBeLessThan(full.length)
      // whole pages only: the first series' rows are a prefix of it, in 1000-candle pages or the series' end
      const btc = partial.filter((k) => k.includes('BTC/USD'))
      const eth = partial.filter((k) => k.includes('ETH/USD'))
      expect(full.slice(0, btc.length)).toEqual(btc)
      expect(btc.length % 1000 === 0 || btc.length === full.filter((k) => k.includes('BTC/USD')).length).toBe(true)
      expect(eth.length % 1000).toBe(0)
      const again = await run([...args, '--quiet'])
      expect(again.code).toBe(0)
      expect(await pgRows(url, 'exchange')).toEqual(await sqliteReference())
    },
    60_000,
  )

  test('two exporters writing the same tables at once, on overlapping series, both succeed and store each row once', async () => {
    const url = await freshDatabase(pgServer)
    const a = run(['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--pair', 'ETH/USD', ...RANGE, '--out', url, '--quiet'], {}, true)
    const b = run(['--exchange', 'bitstamp', '--pair', 'ETH/USD', '--pair', 'BTC/USD', ...RANGE, '--out', url, '--quiet'], {}, true)
    const [ra, rb] = await Promise.all([a, b])
    expect(ra.stderr).toBe('')
    expect(rb.stderr).toBe('')
    expect([ra.code, rb.code]).toEqual([0, 0])
    expect(await pgRows(url, 'exchange')).toEqual(await sqliteReference())
  }, 60_000)

  test('a row another writer stored first (the same series by mistake) is a conflict that neither fails the page nor is overwritten', async () => {
    const url = await freshDatabase(pgServer)
    // Slower than the default (10 pages in about 2.5 s): the other writer comes well before the last page.
    const args = [...PAIRS, ...RANGE, '--out', url, '--rate-limit', '4']
    const cli = await startAndWaitForData(args)
    // Another writer stores the last candle of the second series before this export gets there.
    await withClient(url, (c) =>
      c.query(`INSERT INTO exchange_candles VALUES ('bitstamp', '1h', 'ETH', 'USD', '2024-06-30T00:00:00Z', 1, 1, 1, 1, 1, 1, 'other writer', 'manual', NULL)`),
    )
    const r = await cli.result
    outputs.push(r)
    expect(r.code).toBe(0)
    const rows = await pgRows(url, 'exchange')
    const reference = await sqliteReference()
    expect(keys(rows)).toEqual(keys(reference))
    const other = rows.filter((row) => row.source_provider === 'other writer')
    expect(other.map((row) => row.close_ts)).toEqual(['2024-06-30T00:00:00Z'])
    expect(rows.filter((row) => row.source_provider !== 'other writer')).toEqual(reference.filter((row) => row.close_ts !== '2024-06-30T00:00:00Z' || row.base !== 'ETH'))
  }, 60_000)

  // Alone: every other test needs the server.
  test('the connection cut mid-run (server stopped): a clear message, exit 1, the committed rows intact; the rerun completes', { concurrent: false, timeout: 90_000 }, async () => {
    const url = await freshDatabase(pgServer)
    // Slower than the default (10 pages in about 2.5 s): the server is stopped well before the last page.
    const args = [...PAIRS, ...RANGE, '--out', url, '--rate-limit', '4']
    const cli = await startAndWaitForData(args)
    await pgServer.stop()
    let r: CliResult
    try {
      r = await cli.result
    } finally {
      await pgServer.start()
    }
    outputs.push(r)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/the connection to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/export_\d+_\d+ was lost while writing/)
    expect(r.stderr).toContain('run the same command again')
    const partial = keys(await pgRows(url, 'exchange'))
    const full = keys(await sqliteReference())
    expect(partial.length).toBeGreaterThan(0)
    expect(full.slice(0, partial.filter((k) => k.includes('BTC/USD')).length)).toEqual(partial.filter((k) => k.includes('BTC/USD')))
    const again = await run([...args, '--quiet'])
    expect(again.code).toBe(0)
    expect(await pgRows(url, 'exchange')).toEqual(await sqliteReference())
  })

  test('the connection from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE with --out postgres://', async () => {
    const url = new URL(await freshDatabase(pgServer))
    const pgEnv = { PGHOST: '127.0.0.1', PGPORT: url.port, PGUSER: 'postgres', PGPASSWORD: PG_PASSWORD, PGDATABASE: url.pathname.slice(1) }
    const args = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2024-06-01', '--end', '2024-07-01']
    const r = await run([...args, '--out', 'postgres://'], pgEnv)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('→ postgres://\n')
    // --format postgres alone means the same
    expect((await run([...args, '--format', 'postgres', '--end', '2024-07-10'], pgEnv)).code).toBe(0)
    expect(await pgRows(url.href, 'exchange')).toHaveLength(40)
  }, 30_000)

  describe('errors: a clear message, exit 1, the password never printed', () => {
    const args = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2024-06-01', '--end', '2024-07-01']

    test('server unreachable', async () => {
      const r = await run([...args, '--out', `postgres://postgres:${PG_PASSWORD}@127.0.0.1:1/candles`])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('cannot connect to PostgreSQL at postgres://postgres@127.0.0.1:1/candles (ECONNREFUSED)')
    })

    test('authentication failed', async () => {
      const wrong = 'not-the-password-42'
      const r = await run([...args, '--out', pgServer.url('postgres', wrong)])
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres refused user postgres \(28P01 password authentication failed/)
      expect(r.stderr).not.toContain(wrong)
    })

    test('a table of another shape is refused, never altered', async () => {
      const url = await freshDatabase(pgServer)
      await withClient(url, (c) => c.query(`CREATE TABLE exchange_candles (exchange text, close_ts text, price numeric); INSERT INTO exchange_candles VALUES ('x', 'y', 1)`))
      const r = await run([...args, '--out', url])
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/the table public\.exchange_candles in postgres:\/\/postgres@127\.0\.0\.1:\d+\/export_\d+_\d+ has another shape than this export writes: exchange is nullable; no column interval; .*close_ts is text, not timestamp with time zone; .*an extra column price; its primary key is \(none\), not \(exchange, interval, base, quote, close_ts\)/)
      expect(r.stderr).toContain('It is left as it is')
      const after = await withClient(url, async (c) => (await c.query('SELECT * FROM exchange_candles')).rows)
      expect(after).toEqual([{ exchange: 'x', close_ts: 'y', price: '1' }])
    })

    test('bad flags: --pg-schema without a PostgreSQL --out, --format postgres with a file, a PostgreSQL URL to stdout', async () => {
      const csv = await run([...args, '--out', join(dir, 'x.csv'), '--pg-schema', 's'])
      expect(csv.code).toBe(2)
      expect(csv.stderr).toContain('--pg-schema applies to --out postgres:// only')
      const file = await run([...args, '--out', join(dir, 'x.csv'), '--format', 'postgres'])
      expect(file.code).toBe(2)
      expect(file.stderr).toContain('--format postgres needs --out postgres://')
      const url = await run([...args, '--out', pgServer.url(), '--format', 'csv'])
      expect(url.code).toBe(2)
      expect(url.stderr).toContain(`--out postgres://postgres@127.0.0.1:${pgServer.port}/postgres is a PostgreSQL URL`)
    })
  })

  // Last: every run of this file, successful or not, went through `run` or was pushed here.
  test('the password appears in no output of any run (progress, summary, errors, usage, the command to continue)', { concurrent: false }, () => {
    expect(outputs.length).toBeGreaterThan(10)
    for (const r of outputs) {
      expect(r.stdout).not.toContain(PG_PASSWORD)
      expect(r.stderr).not.toContain(PG_PASSWORD)
    }
  })
})
