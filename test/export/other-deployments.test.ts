/**
 * `market-candles export` reads the SDK's canonical candles (D13): against the reference's variants
 * (timestamps +00:00 / .000000+00:00 / .000Z, null fields left out, extra fields, the python-stack
 * preset), every format writes exactly what it writes from the reference, and a run resumed against
 * another deployment continues the file with no gap and no duplicate. Every deployment is exported
 * into JSON Lines; each other output and each resume against one of them (BY_FORMAT, RESUMES).
 */
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ServiceVariant } from '../../mocks/index.js'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { POSTGRES_MISSING, startPostgres, type RunningPostgres } from '../support/postgres-server.js'
import { duckRows } from './sinks/parquet-reader.js'
import { freshDatabase, pgRows } from './sinks/read-postgres.js'
import { sqliteRows } from './sinks/read-output.js'
import { exportInProcess } from './export-in-process.js'

const NOW = '2025-01-01T00:00:00Z'
const KEY = 'demo-enterprise-key'
// An exchange pair and an aggregated one (flags mostly null, so left out by the omitting variants): 2 pages each.
const EXCHANGE = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2024-10-01', '--end', '2024-12-01']
const AGGREGATED = ['--aggregated', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2022-10-01', '--end', '2022-12-10']

const VARIANTS: Record<string, ServiceVariant | 'python-stack'> = {
  'python-stack': 'python-stack',
  '.000000+00:00, nulls left out, extra fields': { timestamps: '.000000+00:00', nullFields: 'omit', extraFields: true },
  '.000Z': { timestamps: '.000Z' },
}

let reference: RunningMockServer
const servers: Record<string, RunningMockServer> = {}
let dir: string
beforeAll(async () => {
  reference = await startMockServer({ port: 0, now: NOW })
  for (const [name, variant] of Object.entries(VARIANTS)) servers[name] = await startMockServer({ port: 0, now: NOW, variant })
  dir = mkdtempSync(join(tmpdir(), 'export-deployments-'))
})
afterAll(async () => {
  await Promise.all([reference.close(), ...Object.values(servers).map((s) => s.close())])
  rmSync(dir, { recursive: true, force: true })
})

const envOf = (server: RunningMockServer) => ({ MARKET_CANDLES_API_KEY: KEY, MARKET_CANDLES_BASE_URL: server.url })
/** `market-candles export ...` in process (exportInProcess): what this file checks is what lands in the output. */
async function exportTo(server: RunningMockServer, args: string[], out: string, extra: string[] = []) {
  const r = await exportInProcess([...args, '--out', out, '--quiet', ...extra], envOf(server))
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
}

/**
 * The reference's export of `args` into `file` (in `dir`), run once: every deployment is compared
 * with the same output, so the reference's runs are not repeated per variant.
 */
const referenceRuns = new Map<string, Promise<string>>()
function referenceExport(file: string, runs: Array<[string[], string[]?]>): Promise<string> {
  let run = referenceRuns.get(file)
  if (!run) {
    run = (async () => {
      const out = join(dir, `ref-${file}`)
      for (const [args, extra] of runs) await exportTo(reference, args, out, extra)
      return out
    })()
    referenceRuns.set(file, run)
  }
  return run
}
/** The first month of EXCHANGE from the reference, copied for each resume (a file begun from the reference). */
const FIRST_MONTH = EXCHANGE.map((v) => (v === '2024-12-01' ? '2024-10-31' : v))

/** A parquet dataset's files, name by name. */
const files = (root: string): Record<string, Buffer> =>
  Object.fromEntries(readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => [join(e.parentPath, e.name).slice(root.length), readFileSync(join(e.parentPath, e.name))]))

/**
 * Which deployment each heavy path runs against: every deployment into JSON Lines, exchange and
 * aggregated (the format that shows every reading: a timestamp's text, a key left out or added),
 * and each other output once, against the deployment whose reading it stores most directly. The
 * full matrix of formats against every variant was 30 exports here; test/variants/export-matrix
 * exports every variant with resume too.
 */
const JSONL_EVERYWHERE = Object.keys(VARIANTS)
const BY_FORMAT = {
  // Timestamp text kept as text: .000Z in a CSV, +00:00 in a table.
  csv: '.000Z',
  sqlite: 'python-stack',
  // Timestamps parsed into a dataset's column, flags null where the deployment left them out.
  parquet: '.000000+00:00, nulls left out, extra fields',
} as const
/** A file begun from the reference, continued from a deployment that writes close_ts otherwise. */
const RESUMES: Array<['jsonl' | 'csv' | 'sqlite', string]> = [
  ['jsonl', '.000000+00:00, nulls left out, extra fields'],
  ['csv', '.000Z'],
  ['sqlite', 'python-stack'],
]

const slugOf = (name: string) => name.replace(/\W+/g, '-')

// A test runs up to four exports (the reference's among them): room for a loaded machine.
describe('export from another deployment: the same output as from the reference (D13)', { timeout: 90_000 }, () => {
  const LINES: Array<[string, string, 'jsonl' | 'csv', string[]]> = [
    ...JSONL_EVERYWHERE.flatMap((name): Array<[string, string, 'jsonl', string[]]> => [[name, 'JSON Lines', 'jsonl', EXCHANGE], [name, 'JSON Lines, aggregated', 'jsonl', AGGREGATED]]),
    [BY_FORMAT.csv, 'CSV', 'csv', EXCHANGE],
    [BY_FORMAT.csv, 'CSV, aggregated', 'csv', AGGREGATED],
  ]
  test.each(LINES)('writing %s, %s: the same bytes', async (name, _what, ext, args) => {
    const slug = `${slugOf(name)}-${ext}-${args === AGGREGATED ? 'agg' : 'ex'}`
    const b = join(dir, `dep-${slug}.${ext}`)
    const a = await referenceExport(`${args === AGGREGATED ? 'agg' : 'ex'}.${ext}`, [[args]])
    await exportTo(servers[name]!, args, b)
    const text = readFileSync(b, 'utf8')
    expect(text.length).toBeGreaterThan(10_000)
    expect(text).not.toContain('+00:00')
    expect(text).not.toContain('ingested_at')
    expect(text).toBe(readFileSync(a, 'utf8'))
  })

  test(`writing ${BY_FORMAT.sqlite}, SQLite: the same rows, canonical close_ts`, async () => {
    const b = join(dir, `dep-${slugOf(BY_FORMAT.sqlite)}.sqlite`)
    const a = await referenceExport('both.sqlite', [[EXCHANGE], [AGGREGATED]])
    await exportTo(servers[BY_FORMAT.sqlite]!, EXCHANGE, b)
    await exportTo(servers[BY_FORMAT.sqlite]!, AGGREGATED, b)
    for (const table of ['exchange_candles', 'aggregated_candles'] as const) {
      const rows = sqliteRows(b, table)
      expect(rows.length).toBeGreaterThan(1000)
      expect(rows).toEqual(sqliteRows(a, table))
      expect(String(rows[0]!.close_ts)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    }
  })

  test(`writing ${BY_FORMAT.parquet}, Parquet: the same rows`, async () => {
    const b = join(dir, `dep-${slugOf(BY_FORMAT.parquet)}-pq`)
    const a = await referenceExport('ex-pq', [[EXCHANGE, ['--format', 'parquet']]])
    await exportTo(servers[BY_FORMAT.parquet]!, EXCHANGE, b, ['--format', 'parquet'])
    expect(Object.keys(files(b)).sort()).toEqual(Object.keys(files(a)).sort())
    const rows = await duckRows(b, 'exchange')
    expect(rows.length).toBeGreaterThan(1000)
    expect(rows).toEqual(await duckRows(a, 'exchange'))
  })

  test.each(RESUMES)('resume (%s): a file begun from the reference is continued from the deployment writing %s with no gap and no duplicate', async (ext, name) => {
    const resumed = join(dir, `resumed-${slugOf(name)}.${ext}`)
    const full = await (ext === 'sqlite' ? referenceExport('both.sqlite', [[EXCHANGE], [AGGREGATED]]) : referenceExport(`ex.${ext}`, [[EXCHANGE]]))
    // The first month from the reference, then the whole range from the other deployment into the same file.
    copyFileSync(await referenceExport(`first-month.${ext}`, [[FIRST_MONTH]]), resumed)
    await exportTo(servers[name]!, EXCHANGE, resumed)
    if (ext === 'sqlite') expect(sqliteRows(resumed, 'exchange_candles')).toEqual(sqliteRows(full, 'exchange_candles'))
    else expect(readFileSync(resumed, 'utf8')).toBe(readFileSync(full, 'utf8'))
  })
})

describe.skipIf(POSTGRES_MISSING !== undefined)(`export into PostgreSQL from the python-stack deployment${POSTGRES_MISSING ? ` (SKIPPED: ${POSTGRES_MISSING})` : ''}`, () => {
  let pg: RunningPostgres
  beforeAll(async () => {
    pg = await startPostgres()
  }, 60_000)
  afterAll(() => pg?.destroy())

  test('the same rows as from the reference, and a run resumed against it continues with no gap', async () => {
    const [a, b] = [await freshDatabase(pg), await freshDatabase(pg)]
    await exportTo(reference, EXCHANGE, a)
    await exportTo(reference, FIRST_MONTH, b)
    await exportTo(servers['python-stack']!, EXCHANGE, b)
    const rows = await pgRows(b, 'exchange')
    expect(rows.length).toBeGreaterThan(1000)
    expect(rows).toEqual(await pgRows(a, 'exchange'))
  }, 120_000)
})
