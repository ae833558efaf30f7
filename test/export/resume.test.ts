import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { csvFile, jsonLines, sqliteRows } from './sinks/read-output.js'
import { exportInProcess } from './export-in-process.js'
import { startCli, waitFor } from './run-cli.js'

const NOW = '2025-01-01T00:00:00Z'
let server: RunningMockServer
let dir: string
let env: Record<string, string>

// 2 pairs × 4,345 1h candles: 10 pages, about 1 s at 10 requests/s. The interrupted runs are paced
// at 4 a second (about 2.5 s), so the signal comes well before the last page.
const RANGE = ['--interval', '1h', '--start', '2024-01-01', '--end', '2024-06-30']
const PAIRS = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--pair', 'ETH/USD']

beforeAll(async () => {
  // Latency, so that a run lasts long enough to be interrupted mid-way.
  server = await startMockServer({ port: 0, now: NOW, latency: 40 })
  dir = mkdtempSync(join(tmpdir(), 'export-resume-'))
  env = { MARKET_CANDLES_API_KEY: 'demo-enterprise-key', MARKET_CANDLES_BASE_URL: server.url }
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** close_ts values per series of any output, in file (or key) order. */
function keysOf(rows: Array<Record<string, unknown>>): string[] {
  return rows.map((r) => `${r.exchange}|${r.base}/${r.quote}|${r.close_ts}`)
}

let full: Promise<string[]> | undefined
/** The series keys of an uninterrupted run of the same command into a fresh file (run once). */
function fullRun(): Promise<string[]> {
  full ??= (async () => {
    const out = join(dir, 'full.sqlite')
    const r = await exportInProcess([...PAIRS, ...RANGE, '--out', out, '--quiet'], env)
    expect(r.code).toBe(0)
    return read(out, 'sqlite')
  })()
  return full
}

function read(path: string, ext: string): string[] {
  if (ext === 'sqlite') return keysOf(sqliteRows(path, 'exchange_candles'))
  if (ext === 'jsonl') return keysOf(jsonLines(readFileSync(path, 'utf8')))
  const { header, rows } = csvFile(path)
  return keysOf(rows.map((f) => Object.fromEntries(header.map((h, i) => [h, f[i]]))))
}

/*
 * The interrupted runs are the CLI as a process (a signal stops them); the runs that check only what
 * lands in the file, the exit code and the messages run in process (exportInProcess: runExport, what
 * the CLI's export command runs), without a process start each.
 */

/** Starts the export and waits until it has written at least one page (a progress line says so). */
async function startAndWaitForData(out: string) {
  const cli = startCli(['export', ...PAIRS, ...RANGE, '--rate-limit', '4', '--out', out, '--progress-interval', '0.1'], env)
  await waitFor(() => /: [1-9]\d* ?\/?\d* candles/.test(cli.output().stderr) || cli.child.exitCode !== null, 15_000, 'a first page')
  return cli
}

describe('market-candles export: resume', () => {
  test.each(['sqlite', 'jsonl'])(
    'SIGINT stops after the page in hand is written, prints how to continue and exits 130; the same command then completes with no gap and no duplicate (%s)',
    async (ext) => {
      const out = join(dir, `int.${ext}`)
      const cli = await startAndWaitForData(out)
      cli.child.kill('SIGINT')
      const r = await cli.result
      expect(r.code).toBe(130)
      expect(r.stderr).toContain('Interrupted after')
      expect(r.stderr).toContain('Run the same command again to continue')
      expect(r.stderr).toContain(`market-candles export --exchange bitstamp --pair BTC/USD --pair ETH/USD --interval 1h`)
      const partial = read(out, ext)
      expect(partial.length).toBeGreaterThan(0)
      const full = await fullRun()
      expect(partial.length).toBeLessThan(full.length)
      expect(full.slice(0, partial.length)).toEqual(partial) // whole pages, in order, nothing else
      const again = await exportInProcess([...PAIRS, ...RANGE, '--out', out, '--quiet'], env)
      expect(again.code).toBe(0)
      expect(read(out, ext)).toEqual(full)
    },
    40_000,
  )

  test.each(['jsonl', 'csv', 'sqlite'])(
    'after SIGKILL mid-run, a rerun completes with no gap and no duplicate (%s)',
    async (ext) => {
      const out = join(dir, `kill.${ext}`)
      const cli = await startAndWaitForData(out)
      cli.child.kill('SIGKILL')
      expect((await cli.result).signal).toBe('SIGKILL')
      const full = await fullRun()
      const again = await exportInProcess([...PAIRS, ...RANGE, '--out', out, '--quiet'], env)
      expect(again.code).toBe(0)
      expect(read(out, ext)).toEqual(full)
    },
    40_000,
  )

  test.each(['jsonl', 'csv'])(
    'a partial last line (a kill in the middle of a write) is cut back before the rerun appends (%s)',
    async (ext) => {
      const out = join(dir, `cut.${ext}`)
      const args = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2024-01-01', '--end', '2024-03-01', '--out', out, '--quiet']
      expect((await exportInProcess(args, env)).code).toBe(0)
      const complete = readFileSync(out, 'utf8')
      // Drop the last 20 lines and leave half of the next one behind, as a killed write would.
      const lines = complete.split('\n').slice(0, -1)
      const keep = lines.slice(0, -20).join('\n') + '\n' + lines.at(-20)!.slice(0, 37)
      truncateSync(out, 0)
      appendFileSync(out, keep)
      expect(statSync(out).size).toBeLessThan(complete.length)
      expect((await exportInProcess(args, env)).code).toBe(0)
      expect(readFileSync(out, 'utf8')).toBe(complete)
    },
    20_000,
  )

  test('a complete file run again fetches only what closed since: nothing is written twice', async () => {
    const out = join(dir, 'again.sqlite')
    const args = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1d', '--start', '2024-06-01', '--out', out]
    expect((await exportInProcess(args, env)).code).toBe(0)
    const before = sqliteRows(out, 'exchange_candles')
    const r = await exportInProcess(args, env)
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/done: 1 series, 0 candles in 0 pages, 1 request /)
    expect(sqliteRows(out, 'exchange_candles')).toEqual(before)
  })
})
