import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runBounded } from './support/child-process.js'
import { hasRedis, REDIS_SKIP_NOTE, startRedis } from './support/redis-server.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const EXAMPLES = join(ROOT, 'examples')
const TIMEOUT_MS = 60_000
/** A shared process runs several examples: its bound and its tests' timeout. */
const SHARED_TIMEOUT_MS = 120_000

/** Every example, found on disk: a new one is covered without touching this file. */
const files = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
  .sort()

/** What each example must print. A file missing here must still exit 0 with some stdout. */
const EXPECTED: Record<string, RegExp[]> = {
  'demo.ts': [
    /reference service on http:\/\/127\.0\.0\.1:\d+/,
    /exchange ftx\s+created 2019-05-08, closed 2022-11-11/,
    /11 assets: 6 CRYPTO, 3 FIAT, 2 STABLECOIN/,
    /8,759 candles in 9 pages/,
    /first close_ts 2025-06-01T00:00:00Z/,
    /last {2}close_ts 2026-06-01T00:00:00Z/,
    /3,000 candles in 3 pages; yielded newest first: yes/,
    /service-counted candle requests: .*acct_pro 12/,
    /candles\/s/,
  ],
  'config-from-env.ts': [
    /service: http:\/\/127\.0\.0\.1:\d+ \(embedded reference service\); API key: set; log level: info/,
    /market-candles: GET http:\/\/127\.0\.0\.1:\d+\/v1\/exchanges -> 200/,
    /exchanges: bitstamp, ftx/,
    /latest 7 daily BTC\/USD closes/,
  ],
  'catalog.ts': [/ftx: 2019-05-08 \.\. 2022-11-11/, /assets \(11\):/, /bitstamp pairs at 1d \(\d+\):/, /aggregated pairs at 1h/],
  'forward-walk.ts': [/page 1: 48 candles, 2026-05-01T00:00:00Z/, /candle by candle: 169 candles, ascending: true/],
  'backward-walk.ts': [/latest BTC\/USD 1m: 2500 candles, newest first: true/, /ftx BTC\/USD 1d, backward: \d+ candles, 2022-11-11T00:00:00Z back to .*; cursor null/],
  'resume-from-cursor.ts': [
    /maxItems \+ resumeCandles: (\d+) candles, duplicates 0, identical to the uninterrupted walk: true/,
    /aborted after 3 pages .*APIUserAbortError/,
    /AbortController \+ resumePages: \d+ candles, duplicates 0, identical to the uninterrupted walk: true/,
  ],
  'follow-live.ts': [
    /2026-05-31T23:55:00Z close/,
    /followed 8 candles; cursor: \{"version":1,"kind":"follow".*"start":"2026-06-01T00:02:00\.001Z"\}/,
    /resumed with 2026-06-01T00:03:00Z/,
    /followMany: 6 pages, one cursor for 3 series/,
    /ended: Exchange 'ftx' closed on 2022-11-11/,
  ],
  'errors.ts': [/PermissionDeniedError status 403/, /InvalidParamsError \(nothing sent\).*limit/, /NotFoundError status 404/, /AuthenticationError status 401/],
  'shared-rate-limit.ts': [/burst of 30 calls over 2 clients: 30 answered 200, 0 answered 429, 0 failed/, /"acct_enterprise":30/],
  'redis-workers.ts': [/3 worker processes, 60 calls: 60 answered 200, 0 answered 429, 0 failed/, /"acct_enterprise":60/],
  'msw-in-tests.ts': [/intercepting https?:\/\//, /usage after 1 candle call: .*"acct_pro":1/, /after an injected 503: 3 candles, 1 retry/, /usage after reset: .*"acct_pro":0/],
}

/** Examples that need a Redis server: they run with REDIS_URL set to one the test starts, or are skipped without redis-server. */
const NEEDS_REDIS = ['redis-workers.ts']
/**
 * Examples run as a user runs them, a process each (`npx tsx examples/demo.ts`, as `npm start`
 * does): the main demo, and the Redis example, whose workers are processes of their own.
 */
const OWN_PROCESS = ['demo.ts', ...NEEDS_REDIS]
/**
 * Every other example runs in one of these processes, one after the other
 * (test/support/module-runner.mjs): a Node and tsx start each cost about 0.8 s of CPU, the example
 * itself 0.1-0.4 s (2026-11-29). What fails a process of its own fails there too: a throw, an exit
 * code, a server, socket or timer left running, fetch or node:http left patched. Two processes,
 * because several examples wait seconds (a rate limit's pacing, a running clock).
 */
const SHARED_PROCESSES = 2

/** The environment the examples run in: they choose their own servers; a developer's settings must not redirect them. */
function exampleEnv(extraEnv: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv }
  delete env.MARKET_CANDLES_BASE_URL
  delete env.MARKET_CANDLES_API_KEY
  delete env.MARKET_CANDLES_LOG
  delete env.NODE_OPTIONS
  return env
}

interface Outcome {
  /** It ended by itself, without an error or an exit code, within its time. */
  ok: boolean
  stdout: string
  /** Why it failed, and its stderr: the failure's message. */
  context: string
  /** What it left running (examples run in a shared process). */
  left: string[]
}

/** Runs one example on this Node with the tsx loader, as a process of its own; kills it past the timeout. */
async function runExample(file: string, extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(EXAMPLES, file)], { cwd: ROOT, env: exampleEnv(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS - 5_000)
  try {
    const [code, signal] = (await once(child, 'close')) as [number | null, string | null]
    return { ok: code === 0 && signal === null, stdout, left: [], context: `examples/${file}: exit ${code}${signal ? ` (${signal})` : ''}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}` }
  } finally {
    clearTimeout(timer)
  }
}

/** Runs examples one after the other in one process (test/support/module-runner.mjs); each one's outcome. */
async function runShared(id: number, names: string[]): Promise<Map<string, Outcome>> {
  const work = mkdtempSync(join(tmpdir(), 'market-candles-examples-'))
  try {
    const list = join(work, 'list.json')
    const results = join(work, 'results.json')
    writeFileSync(list, JSON.stringify(names.map((name) => ({ name, file: join(EXAMPLES, name), dir: ROOT, env: {}, timeoutMs: TIMEOUT_MS - 5_000 }))))
    const run = await runBounded(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/module-runner.mjs'), list, results], { cwd: ROOT, env: exampleEnv(), timeoutMs: SHARED_TIMEOUT_MS })
    const done = existsSync(results) ? (JSON.parse(readFileSync(results, 'utf8')) as { name: string; ok: boolean; printed: string; stderr: string; error?: string; left?: string[] }[]) : []
    return new Map(names.map((name) => {
      const r = done.find((d) => d.name === name)
      if (r === undefined) return [name, { ok: false, stdout: '', left: [], context: `examples/${name}: the runner ${id} ended before it (exit ${run.code}${run.timedOut ? ', timed out' : ''})\n${run.stdout}\n${run.stderr}` }]
      return [name, { ok: r.ok, stdout: r.printed, left: r.left ?? [], context: `examples/${name}${r.error ? `: ${r.error}` : ''}\n--- stdout ---\n${r.printed}\n--- stderr ---\n${r.stderr}` }]
    }))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** Runs the Redis example against a redis-server started for it. */
async function runWithRedis(file: string): Promise<Outcome> {
  const redis = await startRedis()
  try {
    return await runExample(file, { REDIS_URL: redis.url })
  } finally {
    await redis.stop()
  }
}

/** Every example's outcome, all started at the first call: the processes run side by side. */
let outcomes: Map<string, Promise<Outcome>> | undefined
function outcomeOf(file: string): Promise<Outcome> {
  if (outcomes === undefined) {
    outcomes = new Map()
    for (const name of OWN_PROCESS) {
      if (!files.includes(name) || (NEEDS_REDIS.includes(name) && !hasRedis)) continue
      outcomes.set(name, NEEDS_REDIS.includes(name) ? runWithRedis(name) : runExample(name))
    }
    const names = files.filter((f) => !OWN_PROCESS.includes(f))
    for (let id = 0; id < SHARED_PROCESSES; id++) {
      const group = names.filter((_, i) => i % SHARED_PROCESSES === id)
      const ran = runShared(id, group)
      for (const name of group) outcomes.set(name, ran.then((all) => all.get(name)!))
    }
    for (const outcome of outcomes.values()) outcome.catch(() => {})
  }
  return outcomes.get(file)!
}

function expectRan(file: string, { ok, stdout, context, left }: Outcome): void {
  expect(ok, context).toBe(true)
  expect(left, `left running after it: ${context}`).toEqual([])
  expect(stdout.trim(), context).not.toBe('')
  for (const pattern of EXPECTED[file] ?? []) expect(stdout, context).toMatch(pattern)
}

describe.concurrent('examples/*.ts run and exit by themselves', () => {
  test('there are examples, and every expectation names an existing one', () => {
    expect(files).toContain('demo.ts')
    for (const name of Object.keys(EXPECTED)) expect(existsSync(join(EXAMPLES, name)), `examples/${name}`).toBe(true)
  })

  test.each(files.filter((f) => !NEEDS_REDIS.includes(f)))('examples/%s exits 0 and prints what it shows', async (file) => {
    expectRan(file, await outcomeOf(file))
  }, SHARED_TIMEOUT_MS)

  // Examples that need Redis run with REDIS_URL set to a redis-server the test starts, or are skipped without one.
  test.for(files.filter((f) => NEEDS_REDIS.includes(f)))(`examples/%s exits 0 and prints what it shows, against a redis-server the test starts${hasRedis ? '' : ` (${REDIS_SKIP_NOTE})`}`, { timeout: TIMEOUT_MS }, async (file, { skip }) => {
    if (!hasRedis) skip()
    expectRan(file, await outcomeOf(file))
  })
})
