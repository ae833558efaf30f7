/**
 * The PostgreSQL sink's batches, against a real server (test/support/postgres-server.ts): pages
 * handed over while a batch is stored go together as the next one, in one transaction; a write
 * resolves only once its rows are committed; a failed batch stores nothing, and nothing after it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Series } from '../../../cli/export/plan/series.js'
import { openPostgres } from '../../../cli/export/sinks/postgres/postgres-sink.js'
import { postgresTarget } from '../../../cli/export/sinks/postgres/postgres-target.js'
import type { AnyCandle } from '../../../cli/export/sinks/sink.js'
import { POSTGRES_MISSING, PG_PASSWORD, startPostgres, type RunningPostgres } from '../../support/postgres-server.js'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'
import { sqliteRows } from './read-output.js'
import { freshDatabase, pgRows, withClient } from './read-postgres.js'
import { exportInProcess } from '../export-in-process.js'
import { startCli, waitFor } from '../run-cli.js'

let pgServer: RunningPostgres
let service: RunningMockServer
let dir: string

const series = (base: string): Series => ({ kind: 'exchange', source: 'bitstamp', interval: '1m', base, quote: 'USD', first: 0, last: Date.UTC(2030, 0, 1) })
const BTC = series('BTC')
const ETH = series('ETH')

/** Page `n` (from 0) of 1000 one-minute candles of a series from 2024-01-01. */
function page(s: Series, n: number, channel = 'rest'): AnyCandle[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    exchange: 'bitstamp', interval: '1m', base: s.base, quote: 'USD',
    close_ts: new Date(Date.UTC(2024, 0, 1) + (n * 1000 + i + 1) * 60_000).toISOString().replace('.000Z', 'Z'),
    open: 1, high: 2, low: 0.5, close: 1.5, base_volume: 10, quote_volume: 15, source_provider: 'bitstamp', source_channel: channel, flag: null,
  }))
}

/** Per transaction that stored rows (xmin), its row count and series, in commit order. */
async function transactions(url: string) {
  return withClient(url, async (c) =>
    (await c.query<{ rows: number; bases: string }>(`SELECT count(*)::int AS rows, string_agg(DISTINCT base, ',') AS bases FROM exchange_candles GROUP BY xmin::text::bigint ORDER BY xmin::text::bigint`)).rows,
  )
}

const rowCount = (url: string) => withClient(url, async (c) => (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM exchange_candles')).rows[0]!.n)

describe.skipIf(POSTGRES_MISSING !== undefined)(`PostgreSQL sink batches${POSTGRES_MISSING ? ` (SKIPPED: ${POSTGRES_MISSING})` : ''}`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'export-pg-batches-'))
    ;[pgServer, service] = await Promise.all([startPostgres(), startMockServer({ port: 0, now: '2025-01-01T00:00:00Z', rateLimit: false })])
  }, 60_000)
  afterAll(async () => {
    await Promise.all([pgServer?.destroy(), service?.close()])
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('pages handed over while a batch is stored go together in the next transaction, one series a batch; each write resolves only once its rows are committed', async () => {
    const url = await freshDatabase(pgServer)
    const sink = await openPostgres(postgresTarget(url, undefined, {}), 'exchange', [BTC, ETH])
    expect(sink.pagesInFlight).toBeGreaterThan(1)
    // Twelve pages handed over at once, as the export does while the server is busy.
    const pages = [...[0, 1, 2, 3, 4, 5].map((n) => [BTC, n] as const), ...[0, 1, 2, 3, 4, 5].map((n) => [ETH, n] as const)]
    const seenAtResolve: number[] = []
    await Promise.all(
      pages.map(([s, n], k) =>
        (sink.write(s, page(s, n)) as Promise<void>).then(async () => {
          seenAtResolve[k] = await rowCount(url)
        }),
      ),
    )
    await sink.close()
    // The first page goes alone at once; the rest of BTC waited together; ETH is a batch of its own.
    expect(await transactions(url)).toEqual([
      { rows: 1000, bases: 'BTC' },
      { rows: 5000, bases: 'BTC' },
      { rows: 6000, bases: 'ETH' },
    ])
    // When page k's write resolved, another connection already saw at least pages 0..k.
    seenAtResolve.forEach((seen, k) => expect(seen).toBeGreaterThanOrEqual((k + 1) * 1000))
    expect(sink.lastStored(BTC)).toBe(Date.parse(page(BTC, 5).at(-1)!.close_ts))
    expect(sink.lastStored(ETH)).toBe(Date.parse(page(ETH, 5).at(-1)!.close_ts))
  }, 30_000)

  test('a batch the server refuses stores none of its pages, every page of it fails with the server’s reason, and no later page is stored: what is stored stays a prefix', async () => {
    const url = await freshDatabase(pgServer)
    const sink = await openPostgres(postgresTarget(url, undefined, {}), 'exchange', [BTC])
    // Page 3 holds a NUL byte, which PostgreSQL's text refuses: the batch of pages 1..4 fails whole.
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map((n) => sink.write(BTC, page(BTC, n, n === 3 ? 'r\u0000est' : 'rest'))))
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'rejected'])
    const reason = ((results[1] as PromiseRejectedResult).reason as Error).message
    expect(reason).toMatch(/^PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/export_\d+_\d+: writing failed: invalid byte sequence/)
    expect(reason).not.toContain(PG_PASSWORD)
    // A page handed over after the failure is refused too, never stored after the gap.
    await expect(sink.write(BTC, page(BTC, 5))).rejects.toThrow(/invalid byte sequence/)
    await sink.close()
    expect(await rowCount(url)).toBe(1000)
    expect(sink.lastStored(BTC)).toBe(Date.parse(page(BTC, 0).at(-1)!.close_ts))
  }, 30_000)

  test('a page that cannot be encoded fails, leaves no half row in its batch, and no page after it is stored', async () => {
    const url = await freshDatabase(pgServer)
    const sink = await openPostgres(postgresTarget(url, undefined, {}), 'exchange', [BTC])
    const broken = page(BTC, 2)
    ;(broken[500] as { close_ts: unknown }).close_ts = null
    const results = await Promise.allSettled([page(BTC, 0), page(BTC, 1), broken, page(BTC, 3)].map((p) => sink.write(BTC, p)))
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected'])
    await expect(sink.write(BTC, page(BTC, 4))).rejects.toThrow()
    await sink.close()
    expect(await rowCount(url)).toBe(1000)
  }, 30_000)

  test('after SIGKILL mid-run at full speed (several pages a transaction), the stored rows are whole pages from the start, and the same command completes with no gap and no duplicate', async () => {
    const url = await freshDatabase(pgServer)
    const env = { MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: service.url }
    // 1m over 60 days: 87 pages, downloaded as fast as the machine allows (a few seconds; the kill
    // comes a tenth of a second after the first page is stored).
    const args = ['export', '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--start', '2024-01-01', '--end', '2024-02-29', '--rate-limit', 'off']
    const reference = join(dir, 'reference.sqlite')
    // The reference run and the rerun in process (runExport, what the CLI runs); the interrupted run is the CLI as a process.
    expect((await exportInProcess([...args.slice(1), '--out', reference, '--quiet'], env)).code).toBe(0)
    const full = sqliteRows(reference, 'exchange_candles')
    const cli = startCli([...args, '--out', url, '--progress-interval', '0.1'], env, 60_000)
    await waitFor(() => /: [1-9]\d* ?\/?\d* candles/.test(cli.output().stderr) || cli.child.exitCode !== null, 20_000, 'a first page')
    cli.child.kill('SIGKILL')
    expect((await cli.result).signal).toBe('SIGKILL')
    const partial = await pgRows(url, 'exchange')
    expect(partial.length).toBeGreaterThan(0)
    expect(partial.length).toBeLessThan(full.length)
    expect(partial.length % 1000).toBe(0)
    expect(partial).toEqual(full.slice(0, partial.length))
    const again = await exportInProcess([...args.slice(1), '--out', url, '--quiet'], env)
    expect(again.stderr).toBe('')
    expect(again.code).toBe(0)
    expect(await pgRows(url, 'exchange')).toEqual(full)
    // The run did store several pages in one transaction somewhere (else this test proves nothing new).
    const largest = await withClient(url, async (c) => (await c.query<{ n: number }>('SELECT max(n)::int AS n FROM (SELECT count(*) AS n FROM exchange_candles GROUP BY xmin::text::bigint) t')).rows[0]!.n)
    expect(largest).toBeGreaterThan(1000)
  }, 90_000)
})
