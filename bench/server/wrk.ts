/**
 * The load generator of section 2: wrk (C, one event loop per thread), so the client is not what
 * limits the rate. A Lua script sends the given paths in turn (each thread from its own offset) and
 * prints wrk's summary as JSON; the run goes through bash's `times`, which gives wrk's own CPU time,
 * so the report can show that the generator was not the bottleneck.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface WrkRun {
  requests: number
  bytes: number
  /** As wrk measured it. */
  seconds: number
  /** connect + read + write + timeout errors, and answers that were not 2xx/3xx. */
  errors: number
  non2xx: number
  /** wrk's own CPU (user + system), ms. */
  cpuMs: number
  /** requests / seconds. */
  rate: number
}

const SCRIPT = String.raw`
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
function init(args)
  paths = {}
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  i = (id * 7919) % #paths
end
function request()
  i = i + 1
  if i > #paths then i = 1 end
  return wrk.format(nil, paths[i])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('wrk-summary {"requests":%d,"bytes":%d,"duration_us":%d,"errors":%d,"non2xx":%d}\n',
    summary.requests, summary.bytes, summary.duration, e.connect + e.read + e.write + e.timeout, e.status))
end
`

/** The wrk binary on PATH, or undefined. */
export function findWrk(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' })
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : undefined
}

/**
 * Installs wrk from the distribution (Debian/Ubuntu, as root) when it is missing; returns why not
 * otherwise. Says what it does on stdout.
 */
export function ensureWrk(log: (line: string) => void): { ok: true } | { ok: false; why: string } {
  if (findWrk()) return { ok: true }
  const root = process.getuid?.() === 0
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0
  if (!root || !apt) return { ok: false, why: 'wrk is not installed: install it (Debian/Ubuntu: sudo apt-get install -y wrk; macOS: brew install wrk) and run the bench again' }
  log('  wrk is not installed: installing it with apt-get install -y wrk ...')
  let r = spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], { encoding: 'utf8', timeout: 180_000 })
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { encoding: 'utf8', timeout: 180_000 })
    r = spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], { encoding: 'utf8', timeout: 180_000 })
  }
  return findWrk() ? { ok: true } : { ok: false, why: `apt-get install -y wrk failed: ${(r.stderr || r.stdout || String(r.error)).trim().split('\n').at(-1)}` }
}

export interface Wrk {
  run(options: { baseUrl: string; paths: string; headers: Record<string, string>; connections: number; threads: number; seconds: number }): Promise<WrkRun>
  /** Writes a path list for `run` (one path per line); returns its name. */
  paths(name: string, paths: readonly string[]): Promise<string>
  close(): Promise<void>
}

export async function createWrk(): Promise<Wrk> {
  const dir = await mkdtemp(join(tmpdir(), 'market-candles-wrk-'))
  const script = join(dir, 'rotate.lua')
  await writeFile(script, SCRIPT)
  return {
    async paths(name, paths) {
      const file = join(dir, `${name}.txt`)
      await writeFile(file, `${paths.join('\n')}\n`)
      return file
    },
    run({ baseUrl, paths, headers, connections, threads, seconds }) {
      const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', script]
      for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
      args.push(baseUrl, '--', paths)
      // `times` prints this shell's and its children's user/system times: the second line is wrk's.
      const child = spawn('bash', ['-c', 'wrk "$@" || exit $?; times', 'wrk', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s))
      child.stderr.setEncoding('utf8').on('data', (s: string) => err.length < 4000 && (err += s))
      return new Promise<WrkRun>((resolve, reject) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000)
        child.once('error', reject)
        child.once('close', (code) => {
          clearTimeout(timer)
          const line = out.split('\n').find((l) => l.startsWith('wrk-summary '))
          const times = out.trim().split('\n').slice(-1)[0]?.match(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/)
          if (code !== 0 || !line || !times) return reject(new Error(`wrk ${args.join(' ')} exited ${code}\n${out}${err}`))
          const s = JSON.parse(line.slice('wrk-summary '.length)) as { requests: number; bytes: number; duration_us: number; errors: number; non2xx: number }
          const cpuMs = (Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])) * 1000
          const secs = s.duration_us / 1e6
          resolve({ requests: s.requests, bytes: s.bytes, seconds: secs, errors: s.errors, non2xx: s.non2xx, cpuMs, rate: s.requests / secs })
        })
      })
    },
    close: () => rm(dir, { recursive: true, force: true }),
  }
}
