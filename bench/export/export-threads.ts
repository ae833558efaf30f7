/**
 * Where an export's CPU goes, thread by thread: `node --import tsx bench/export/export-threads.ts [sqlite|csv|jsonl|postgres ...]`.
 * Starts the reference server (dist/cli.js serve --no-rate-limit) and, for `postgres`, a local
 * PostgreSQL with its default durability, then runs `dist/cli.js export` of 745 full 1m pages into
 * each output named (default: all four), 2 rounds. While the export runs it samples
 * /proc/PID/task/TID/stat every 25 ms, and prints per 1000-candle page: the wall time, the CPU of
 * each thread of the export's process (WorkerThread: the export thread, then the output thread;
 * V8Worker: V8's GC and compiler helpers; MainThread), of the reference server and of PostgreSQL's
 * processes. Linux only. `PROF=DIR` also writes a `--cpu-prof` profile per thread into DIR.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI } from '../support/build-cli.js'
import { TICK_MS, processTreeCpuMs, readProcStat, startChildServer } from '../support/child-server.js'
import { API_KEY, NOW } from '../support/fixtures.js'
import { startPostgres } from '../../test/support/postgres-server.js'

const PAGES = 745 // 2020-01-01 .. 2021-06-01 at 1m, 1000 candles a page
const OUTPUTS = ['sqlite', 'csv', 'jsonl', 'postgres']

function threadsCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>()
  let tids: string[] = []
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return out
  }
  for (const tid of tids) {
    try {
      const { comm, fields } = readProcStat(`/proc/${pid}/task/${tid}/stat`)
      out.set(`${tid} ${comm}`, (Number(fields[11]) + Number(fields[12])) * TICK_MS)
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out
}

const outputs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : OUTPUTS
const unknown = outputs.filter((o) => !OUTPUTS.includes(o))
if (unknown.length > 0) throw new Error(`unknown output ${unknown.join(', ')}: choose from ${OUTPUTS.join(', ')}`)
const server = await startChildServer('serve', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--now', NOW, '--no-rate-limit'])
const pg = outputs.includes('postgres') ? await startPostgres({ durable: true }) : undefined
const dir = mkdtempSync(join(tmpdir(), 'export-threads-'))
try {
  for (let round = 0; round < 2; round++) {
    for (const output of outputs) {
      const out = output === 'postgres' ? ['--out', pg!.url(), '--pg-schema', `threads_${round}`] : ['--out', join(dir, `${round}.${output}`)]
      const prof = process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`] : []
      const server0 = server.cpuMs()
      const pg0 = pg ? processTreeCpuMs(pg.pid) : 0
      const started = performance.now()
      const argv = [...prof, CLI, 'export', '--base-url', server.url, '--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1m', '--start', '2020-01-01', '--end', '2021-06-01', '--rate-limit', 'off', '--quiet', ...out]
      const child = spawn(process.execPath, argv, { env: { ...process.env, MARKET_CANDLES_API_KEY: API_KEY }, stdio: ['ignore', 'ignore', 'inherit'] })
      // The last sample with every thread: threads end one by one as the process exits.
      let last = new Map<string, number>()
      const timer = setInterval(() => {
        const now = threadsCpu(child.pid!)
        if (now.size >= last.size) last = now
      }, 25)
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      clearInterval(timer)
      if (code !== 0) throw new Error(`the export into ${output} exited ${code}`)
      const perPage = (ms: number) => (ms / PAGES).toFixed(2)
      const threads = [...last].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms > 0).map(([name, ms]) => `${name.split(' ')[1]} ${perPage(ms)}`)
      console.log(
        `round ${round + 1} ${output}: wall ${perPage(performance.now() - started)} ms a page; reference server ${perPage(server.cpuMs() - server0)}` +
          (output === 'postgres' ? `; PostgreSQL ${perPage(processTreeCpuMs(pg!.pid) - pg0)}` : '') +
          `\n    threads: ${threads.join(', ')}`,
      )
    }
  }
} finally {
  await server.stop()
  await pg?.destroy()
  rmSync(dir, { recursive: true, force: true })
}
