import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { hasRedis, REDIS_SKIP_NOTE, startRedis } from './support/redis-server.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const EXAMPLES = join(ROOT, 'examples')
const TIMEOUT_MS = 60_000

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

/** Runs one example on this Node with the tsx loader; kills it past the timeout. */
async function runExample(file: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv }
  // The examples choose their own servers; a developer's settings must not redirect them.
  delete env.MARKET_CANDLES_BASE_URL
  delete env.MARKET_CANDLES_API_KEY
  delete env.MARKET_CANDLES_LOG
  delete env.NODE_OPTIONS
  const child = spawn(process.execPath, ['--import', 'tsx', join(EXAMPLES, file)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS - 5_000)
  try {
    const [code, signal] = (await once(child, 'close')) as [number | null, string | null]
    return { code, signal, stdout, stderr }
  } finally {
    clearTimeout(timer)
  }
}

// Each example is a process of its own with its own servers, and several spend seconds waiting (a
// rate limit's pacing, a running clock): they run side by side (at most maxConcurrency, 5).
describe.concurrent('examples/*.ts run and exit by themselves', () => {
  test('there are examples, and every expectation names an existing one', () => {
    expect(files).toContain('demo.ts')
    for (const name of Object.keys(EXPECTED)) expect(existsSync(join(EXAMPLES, name)), `examples/${name}`).toBe(true)
  })

  test.each(files.filter((f) => !NEEDS_REDIS.includes(f)))('examples/%s exits 0 and prints what it shows', async (file) => {
    const { code, signal, stdout, stderr } = await runExample(file)
    const context = `examples/${file}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`
    expect(signal, context).toBeNull()
    expect(code, context).toBe(0)
    expect(stdout.trim(), context).not.toBe('')
    for (const pattern of EXPECTED[file] ?? []) expect(stdout, context).toMatch(pattern)
  }, TIMEOUT_MS)
})

describe.skipIf(!hasRedis)(`examples that need Redis, against a redis-server the test starts${hasRedis ? '' : ` (${REDIS_SKIP_NOTE})`}`, () => {
  test.each(files.filter((f) => NEEDS_REDIS.includes(f)))('examples/%s exits 0 and prints what it shows', async (file) => {
    const redis = await startRedis()
    try {
      const { code, signal, stdout, stderr } = await runExample(file, { REDIS_URL: redis.url })
      const context = `examples/${file}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`
      expect(signal, context).toBeNull()
      expect(code, context).toBe(0)
      for (const pattern of EXPECTED[file] ?? []) expect(stdout, context).toMatch(pattern)
    } finally {
      await redis.stop()
    }
  }, TIMEOUT_MS)
})
