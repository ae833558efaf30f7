/**
 * Where the CPU of storing one page into PostgreSQL goes: `node --import tsx bench/export/pg-page-cost.ts [PAGES] [VARIANT...]`.
 * Starts a durable server (test/support/postgres-server.ts, `durable: true`: fsync, synchronous_commit
 * and full_page_writes on, as a user's server has them), and for each variant loads PAGES pages of 1000
 * generated 1m candles of one series into a fresh schema, the table created as the sink creates it.
 * Before and after each variant it reads the CPU time of every postgres process from /proc/PID/stat
 * (the backend of the load, walwriter, checkpointer, background writer, autovacuum; the postmaster's
 * cutime/cstime holds the processes that exited, such as autovacuum workers), the exporter's own CPU
 * (and the part spent encoding COPY data) and pg_stat_wal. A CHECKPOINT closes each variant and is
 * counted as its own column: every page's data is written out by one sooner or later.
 * Variants: `sink` is the PostgreSQL sink itself (openPostgres, through write()); the others are
 * diagnostic loads on a plain client, to see what each part costs.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { finished } from 'node:stream/promises'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { EXCHANGE_COLUMNS } from '../../cli/export/sinks/columns.js'
import { copyText as copyPages } from '../../cli/export/sinks/postgres/postgres-copy-text.js'
import { ensureTable, ident } from '../../cli/export/sinks/postgres/postgres-schema.js'
import { openPostgres } from '../../cli/export/sinks/postgres/postgres-sink.js'
import { postgresTarget } from '../../cli/export/sinks/postgres/postgres-target.js'
import type { AnyCandle, Sink } from '../../cli/export/sinks/sink.js'
import type { Series } from '../../cli/export/plan/series.js'
import { startPostgres, type RunningPostgres } from '../../test/support/postgres-server.js'
import { TICK_MS, readProcStat } from '../support/child-server.js'

const PAGE = 1000

interface ProcCpu {
  title: string
  ms: number
}

interface PostgresCpu {
  /** CPU ms by role, over the live children and those the postmaster has reaped (`ended`). */
  byRole: Map<string, number>
  /** The client backends alive now, but `except`. */
  backends: number
}

/** CPU ms of the postmaster and its children by role, from /proc (USER_HZ ticks). */
function postgresCpu(postmaster: number, except: number): PostgresCpu {
  const byRole = new Map<string, number>()
  let backends = 0
  const add = (role: string, ms: number) => byRole.set(role, (byRole.get(role) ?? 0) + ms)
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === except) continue
    let f: string[]
    let cmd: string
    try {
      f = readProcStat(`/proc/${name}/stat`).fields
      cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', '').trim()
    } catch {
      continue // exited meanwhile
    }
    const ticks = (i: number) => Number(f[i]) * TICK_MS
    if (Number(name) === postmaster) {
      add('postmaster', ticks(11) + ticks(12))
      // Children that exited: the load's backend once its client closed, autovacuum workers.
      add('ended (backend, autovacuum workers)', ticks(13) + ticks(14))
    } else if (Number(f[1]) === postmaster) {
      const role = roleOf(cmd)
      if (role === 'backend') backends++
      add(role === 'backend' ? 'ended (backend, autovacuum workers)' : role, ticks(11) + ticks(12))
    }
  }
  return { byRole, backends }
}

function roleOf(cmd: string): string {
  const t = cmd.replace(/^postgres: /, '')
  for (const role of ['walwriter', 'checkpointer', 'background writer', 'autovacuum launcher', 'autovacuum worker', 'logical replication launcher']) if (t.startsWith(role)) return role
  return 'backend'
}

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** PAGES pages of 1000 ascending 1m candles of one series, built before any timing. */
function generate(pages: number, startMs: number): AnyCandle[][] {
  const out: AnyCandle[][] = []
  let t = startMs
  let price = 30_000
  for (let p = 0; p < pages; p++) {
    const page: AnyCandle[] = []
    for (let i = 0; i < PAGE; i++) {
      t += 60_000
      const open = price
      price = price * (1 + (Math.sin(t / 7e6) + Math.cos(t / 1.3e5)) * 1e-4)
      page.push({
        exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', close_ts: new Date(t).toISOString().replace('.000Z', 'Z'),
        open, high: Math.max(open, price) * 1.0003, low: Math.min(open, price) * 0.9997, close: price,
        base_volume: 3.25 + (i % 17) * 0.173, quote_volume: (3.25 + (i % 17) * 0.173) * price,
        source_provider: 'bitstamp', source_channel: 'rest', flag: i % 97 === 0 ? 'outlier' : null,
      } as AnyCandle)
    }
    out.push(page)
  }
  return out
}

interface Variant {
  name: string
  what: string
  /** Loads the pages; returns the exporter's CPU ms spent encoding. */
  load(ctx: { url: string; schema: string; pages: AnyCandle[][]; series: Series }): Promise<number>
}

const SERIES: Series = { kind: 'exchange', source: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', first: 0, last: Date.UTC(2030, 0, 1) }

// A plain client with the table created as the sink creates it (ensureTable), and `extraDdl` after it.
async function plainClient(url: string, schema: string, extraDdl: string[] = []) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  if (process.env.PG_COST_PRINT_PID) console.log(`backend pid ${(await client.query('SELECT pg_backend_pid() AS p')).rows[0].p}`)
  await ensureTable(client, schema, 'exchange', 'bench')
  for (const ddl of extraDdl) await client.query(ddl.replaceAll('$T', `${ident(schema)}.exchange_candles`).replaceAll('$S', ident(schema)))
  return client
}

const columns = EXCHANGE_COLUMNS.map(ident).join(', ')

async function copy(client: pg.Client, schema: string, data: Buffer | string) {
  const stream = client.query(copyFrom(`COPY ${ident(schema)}.exchange_candles (${columns}) FROM STDIN (FORMAT text)`))
  stream.end(data)
  await finished(stream)
}

/** Pages grouped `per` to a transaction: BEGIN, one COPY per page, COMMIT (or one COPY of them all, `oneCopy`). */
function batched(name: string, per: number, opts: { oneCopy?: boolean; asyncCommit?: boolean; ddl?: string[]; what: string }): Variant {
  return {
    name,
    what: opts.what,
    async load({ url, schema, pages }) {
      const client = await plainClient(url, schema, opts.ddl)
      let encodeMs = 0
      try {
        for (let i = 0; i < pages.length; i += per) {
          const group = pages.slice(i, i + per)
          const last = i + per >= pages.length
          const c0 = cpuMs()
          const data = opts.oneCopy ? copyPages('exchange', group.flat()) : undefined
          const each = opts.oneCopy ? [] : group.map((p) => copyPages('exchange', p))
          encodeMs += cpuMs() - c0
          // One statement alone is a transaction of its own (autocommit); several need BEGIN .. COMMIT.
          const explicit = each.length > 1 || opts.asyncCommit
          if (explicit) await client.query(opts.asyncCommit && !last ? 'BEGIN; SET LOCAL synchronous_commit = off' : 'BEGIN')
          if (data) await copy(client, schema, data)
          for (const d of each) await copy(client, schema, d)
          if (explicit) await client.query('COMMIT')
        }
      } finally {
        await client.end()
      }
      return encodeMs
    },
  }
}

const VARIANTS: Variant[] = [
  {
    name: 'sink',
    what: 'the PostgreSQL sink: openPostgres, write() per page, as many in flight as it takes (pagesInFlight), as the export hands them over',
    async load({ url, schema, pages, series }) {
      const sink: Sink = await openPostgres(postgresTarget(url, schema, {}), 'exchange', [series])
      const depth = sink.pagesInFlight ?? 1
      const writing: Array<void | Promise<void>> = []
      for (const p of pages) {
        if (writing.length >= depth) await writing.shift()
        writing.push(sink.write(series, p))
      }
      await Promise.all(writing)
      await sink.close()
      return Number.NaN
    },
  },
  batched('page-tx', 1, { what: 'one COPY per page, autocommit (the sink before: the same statements on a plain client)' }),
  batched('batch-10', 10, { what: '10 pages a transaction: BEGIN, 10 COPYs, COMMIT' }),
  batched('copy-2', 2, { oneCopy: true, what: '2 pages in one COPY, one transaction' }),
  batched('copy-4', 4, { oneCopy: true, what: '4 pages in one COPY, one transaction' }),
  batched('copy-8', 8, { oneCopy: true, what: '8 pages in one COPY, one transaction' }),
  batched('copy-16', 16, { oneCopy: true, what: '16 pages in one COPY, one transaction' }),
  batched('copy-4-async', 4, { oneCopy: true, asyncCommit: true, what: '4 pages in one COPY, synchronous_commit off but for the last' }),
  batched('copy-10', 10, { oneCopy: true, what: '10 pages in one COPY, one transaction' }),
  batched('async-commit', 1, { asyncCommit: true, what: 'a page a transaction, synchronous_commit off but for the last' }),
  batched('no-index', 1, { ddl: ['ALTER TABLE $T DROP CONSTRAINT exchange_candles_pkey'], what: 'diagnostic: no primary key index' }),
  batched('unlogged', 1, { ddl: ['ALTER TABLE $T SET UNLOGGED'], what: 'diagnostic: no WAL at all (UNLOGGED)' }),
  batched('copy-8-no-index', 8, { oneCopy: true, ddl: ['ALTER TABLE $T DROP CONSTRAINT exchange_candles_pkey'], what: 'diagnostic: 8 pages a COPY, no primary key index' }),
  batched('copy-8-pk-ts', 8, { oneCopy: true, ddl: ['ALTER TABLE $T DROP CONSTRAINT exchange_candles_pkey', 'ALTER TABLE $T ADD PRIMARY KEY (close_ts)'], what: 'diagnostic: 8 pages a COPY, a primary key of close_ts alone (no text columns in the key)' }),
  batched('copy-8-ts-first', 8, { oneCopy: true, ddl: ['ALTER TABLE $T DROP CONSTRAINT exchange_candles_pkey', 'ALTER TABLE $T ADD PRIMARY KEY (close_ts, exchange, "interval", base, quote)'], what: 'diagnostic: 8 pages a COPY, the same primary key columns with close_ts first' }),
  batched('copy-8-unlogged', 8, { oneCopy: true, ddl: ['ALTER TABLE $T SET UNLOGGED'], what: 'diagnostic: 8 pages a COPY, no WAL (UNLOGGED)' }),
  batched('idx-ff100', 1, { ddl: ['ALTER INDEX $S.exchange_candles_pkey SET (fillfactor = 100)'], what: 'primary key index fillfactor 100' }),
]

async function walStats(c: pg.Client) {
  const r = await c.query<{ records: string; fpi: string; bytes: string }>('SELECT wal_records AS records, wal_fpi AS fpi, wal_bytes AS bytes FROM pg_stat_wal')
  return { records: Number(r.rows[0]!.records), fpi: Number(r.rows[0]!.fpi), bytes: Number(r.rows[0]!.bytes) }
}

const diff = (a: Map<string, number>, b: Map<string, number>) => {
  const out = new Map<string, number>()
  for (const [k, v] of b) out.set(k, v - (a.get(k) ?? 0))
  return out
}

async function measure(server: RunningPostgres, variant: Variant, pages: AnyCandle[][], round: number) {
  const url = server.url()
  const schema = `cost_${variant.name.replaceAll('-', '_')}_${round}`
  // The monitor's own backend is left out of the figures.
  const monitor = new pg.Client({ connectionString: url })
  await monitor.connect()
  try {
    const me = (await monitor.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
    const pm = server.pid!
    // Every process's CPU after the load's backend has ended and been reaped (its CPU is then the postmaster's cutime).
    const settled = async () => {
      // Two readings in a row with no backend left: one that has just exited may not be reaped yet.
      let quiet = 0
      for (let i = 0; i < 200; i++) {
        const now = postgresCpu(pm, me)
        quiet = now.backends === 0 ? quiet + 1 : 0
        if (quiet === 2) return now.byRole
        await new Promise((r) => setTimeout(r, 20))
      }
      throw new Error('a backend is still alive 2 s after the load')
    }
    await monitor.query('CHECKPOINT')
    const wal0 = await walStats(monitor)
    const before = await settled()
    const c0 = cpuMs()
    const t0 = performance.now()
    const encodeMs = await variant.load({ url, schema, pages, series: SERIES })
    const wallMs = performance.now() - t0
    const exporterMs = cpuMs() - c0
    const wal1 = await walStats(monitor)
    const loaded = await settled()
    await monitor.query('CHECKPOINT')
    const done = await settled()
    const load = diff(before, loaded)
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)
    return {
      wallMs,
      exporterMs,
      encodeMs,
      load,
      serverMs: sum(load),
      checkpointMs: sum(diff(loaded, done)),
      wal: { records: wal1.records - wal0.records, fpi: wal1.fpi - wal0.fpi, bytes: wal1.bytes - wal0.bytes },
    }
  } finally {
    await monitor.end()
  }
}

const perPage = (ms: number, pages: number) => (ms / pages).toFixed(2)

async function main() {
  const pagesArg = Number(process.argv[2] ?? 300)
  const names = process.argv.slice(3)
  const chosen = names.length === 0 ? VARIANTS : VARIANTS.filter((v) => names.includes(v.name))
  const server = await startPostgres({ durable: true })
  try {
    const pages = generate(pagesArg, Date.UTC(2022, 0, 1))
    // A warm-up load, so no variant pays for the first JIT and the first catalog reads.
    await measure(server, VARIANTS[1]!, pages.slice(0, 20), 0)
    console.log(`${pagesArg} pages of ${PAGE} candles per variant; ms of CPU per page (server processes, then the exporter); WAL per page`)
    const rounds = Number(process.env.PG_COST_ROUNDS ?? 1)
    for (let round = 1; round <= rounds; round++) for (const v of chosen) {
      const r = await measure(server, v, pages, round)
      const roles = [...r.load].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${perPage(ms, pagesArg)}`).join(', ')
      console.log(
        `${v.name.padEnd(13)} server ${perPage(r.serverMs, pagesArg)} ms (${roles}); checkpoint after ${perPage(r.checkpointMs, pagesArg)}; ` +
          `exporter ${perPage(r.exporterMs, pagesArg)}${Number.isNaN(r.encodeMs) ? '' : ` (encode ${perPage(r.encodeMs, pagesArg)})`}; wall ${perPage(r.wallMs, pagesArg)}; ` +
          `WAL ${(r.wal.bytes / pagesArg / 1024).toFixed(0)} KiB, ${(r.wal.records / pagesArg).toFixed(0)} records, ${(r.wal.fpi / pagesArg).toFixed(1)} FPI  — ${v.what}`,
      )
    }
  } finally {
    await server.destroy()
  }
}

await main()
