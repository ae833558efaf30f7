import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { explicitDataset } from '../support/fixtures.js'
import { cliInProcess } from './cli-in-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

/** Runs the built CLI; resolves with its first stdout line (or its exit when it ends first). */
function run(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const exited = once(child, 'exit').then(([code]) => code as number)
  const firstLine = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no output in 10 s; stderr: ${stderr}`)), 10_000)
    child.stdout.on('data', () => {
      if (stdout.includes('\n')) {
        clearTimeout(timer)
        resolve(stdout.split('\n')[0]!)
      }
    })
    void exited.then(() => clearTimeout(timer))
  })
  return { child, firstLine, exited, output: () => ({ stdout, stderr }) }
}

describe('the CLI: market-candles serve', () => {
  test('first line on stdout is "listening on http://HOST:PORT"; --port 0 picks a free port; --now fixes the clock', async () => {
    const cli = run(['serve', '--port', '0', '--now', '2025-03-01T00:00:00Z'])
    try {
      const line = await cli.firstLine
      expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
      const url = line.replace('listening on ', '')
      const res = await fetch(`${url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1d&base=BTC&quote=USD&limit=1`, { headers: { 'X-API-Key': 'demo-pro-key' } })
      expect((await res.json())[0].close_ts).toBe('2025-03-01T00:00:00Z')
    } finally {
      cli.child.kill('SIGTERM')
      expect(await cli.exited).toBe(0)
    }
  })

  test('--latency delays every response; --no-rate-limit lets a burst through', async () => {
    const cli = run(['serve', '--port', '0', '--latency', '120', '--no-rate-limit'])
    try {
      const url = (await cli.firstLine).replace('listening on ', '')
      const started = performance.now()
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => fetch(`${url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: { 'X-API-Key': 'demo-pro-key' } })),
      )
      expect(performance.now() - started).toBeGreaterThanOrEqual(110)
      expect(burst.map((r) => r.status)).toEqual(Array(20).fill(200))
    } finally {
      cli.child.kill('SIGTERM')
      await cli.exited
    }
  })

  test('--now ISO --clock-rate N runs the clock from now at N times wall speed; --publish-delay hides a candle that long after its close', async () => {
    const cli = run(['serve', '--port', '0', '--now', '2025-03-01T00:00:00Z', '--clock-rate', '3600', '--publish-delay', '1800000'])
    try {
      const url = (await cli.firstLine).replace('listening on ', '')
      const clock = async () => Date.parse((await (await fetch(`${url}/_mock/clock`)).json()).now)
      const first = await clock()
      expect(first).toBeGreaterThanOrEqual(Date.parse('2025-03-01T00:00:00Z'))
      // An hour per second: within at most a few seconds the clock passes 01:30, and the 01:00
      // candle (close 01:00 + 30 min of publish delay) appears; polled, never slept blindly.
      let latest = ''
      for (let i = 0; i < 50 && latest !== '2025-03-01T01:00:00Z'; i++) {
        await new Promise((r) => setTimeout(r, 150))
        const res = await fetch(`${url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: { 'X-API-Key': 'demo-pro-key' } })
        latest = (await res.json())[0].close_ts
        // The newest visible candle closed between 1.5 h and 30 min before the service's Date (whole seconds).
        const date = Date.parse(res.headers.get('date')!)
        expect(date - Date.parse(latest)).toBeGreaterThanOrEqual(1_800_000)
        expect(date - Date.parse(latest)).toBeLessThan(5_400_000)
      }
      expect(latest).toBe('2025-03-01T01:00:00Z')
      expect(await clock()).toBeGreaterThan(first)
    } finally {
      cli.child.kill('SIGTERM')
      expect(await cli.exited).toBe(0)
    }
  })

  test.each([
    [['serve', '--port', 'abc'], /--port must be an integer/],
    [['serve', '--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['serve', '--latency', '-5'], /--latency must be an integer from 0 to 600000, got '-5'/],
    [['serve', '--latency=-5'], /--latency must be an integer from 0 to 600000, got '-5'/],
    [['serve', '--port', '-1'], /--port must be an integer from 0 to 65535, got '-1'/],
    [['serve', '--now', 'tomorrow'], /--now must be an ISO 8601 datetime/],
    [['serve', '--clock-rate', '-60'], /--clock-rate must be a number from 0 to 31536000, got '-60'/],
    [['serve', '--clock-rate', 'fast'], /--clock-rate must be a number/],
    [['serve', '--publish-delay', '1.5'], /--publish-delay must be an integer from 0 to 86400000/],
    [['serve', '--bogus'], /Unknown option '--bogus'/],
    [['serve', 'extra'], /positional/i],
    [['launch'], /unknown command 'launch'/],
    [[], /Usage: market-candles <command>/],
  ])('bad flags %j: a clear message and exit code 2', async (args, message) => {
    // In process (what the bin runs): the built CLI as a process is the next test's.
    const { code, stdout, stderr } = await cliInProcess(args)
    expect(code).toBe(2)
    expect(stderr + stdout).toMatch(message)
  })

  test('bad flags over the command line (the built CLI): the process exits 2 with the message and the usage on stderr', async () => {
    const cli = run(['serve', '--port', 'abc'])
    expect(await cli.exited).toBe(2)
    expect(cli.output().stderr).toMatch(/^market-candles serve: --port must be an integer from 0 to 65535, got 'abc'\n\nUsage: market-candles serve /)
  })

  test('market-candles --version prints the package version', async () => {
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version
    const cli = run(['--version'])
    expect(await cli.exited).toBe(0)
    expect(cli.output().stdout.trim()).toBe(version)
  })
})

describe('the CLI: serve --data FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'market-candles-data-'))
  const file = (name: string, content: unknown) => {
    const path = join(dir, name)
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
    return path
  }
  const plans = [{ id: 'all', endpoints: { exchange_ohlcv: { '1h': null }, aggregated_ohlcv: { '1h': null } } }]
  const accounts = [{ id: 'acct_test', plan: 'all' }]
  const keys = [{ key: 'my-own-secret-key-1234', account: 'acct_test' }]

  test('serves the user dataset with its own plans, accounts and keys, and never prints the keys', async () => {
    const cli = run(['serve', '--port', '0', '--now', '2024-02-01T00:00:00Z', '--data', file('good.json', { data: explicitDataset(), plans, accounts, keys })])
    try {
      const url = (await cli.firstLine).replace('listening on ', '')
      const exchanges = await (await fetch(`${url}/v1/exchanges`)).json()
      expect(exchanges.map((e: { name: string }) => e.name)).toEqual(['alpha', 'beta'])
      const res = await fetch(`${url}/v1/exchange_ohlcv?exchange=alpha&interval=1h&base=BTC&quote=USD&limit=2`, { headers: { 'X-API-Key': 'my-own-secret-key-1234' } })
      expect(res.status).toBe(200)
      expect((await res.json())[0].exchange).toBe('alpha')
      expect((await fetch(`${url}/v1/exchange_ohlcv?exchange=alpha&interval=1h&base=BTC&quote=USD`, { headers: { 'X-API-Key': 'demo-pro-key' } })).status).toBe(401)
      expect(await (await fetch(`${url}/_mock/usage`)).json()).toEqual({ acct_test: 1 })
    } finally {
      cli.child.kill('SIGTERM')
      await cli.exited
    }
    expect(cli.output().stdout).not.toContain('my-own-secret-key-1234')
  })

  test.each([
    ['a candle that breaks a rule', () => {
      const data = explicitDataset()
      data.candles[3] = { ...data.candles[3]!, low: 'cheap' as unknown as number }
      return file('bad-candle.json', { data })
    }, /--data .*bad-candle\.json: candles\[3\]\.low: expected number, got string/],
    ['an account on an unknown plan', () => file('bad-account.json', { plans, accounts: [{ id: 'a', plan: 'gold' }], keys: [] }), /accounts\[0\]: unknown plan 'gold'/],
    ['a key given twice (quoted by its hint only)', () => file('twice.json', { plans, accounts, keys: [...keys, ...keys] }), /keys\[1\]: the key my-o… appears twice/],
    ['an unknown top-level key', () => file('extra.json', { candles: [] }), /unknown key 'candles' \(expected data, plans, accounts, keys\)/],
    ['a file that is not JSON', () => file('broken.json', '{ "data": '), /not valid JSON/],
    ['a file that is not an object', () => file('array.json', []), /expected an object \{ data, plans, accounts, keys \}, got an array/],
    ['data that is not an object', () => file('number.json', { data: 5 }), /data: expected \{ exchanges, assets, candles \}/],
    ['a file that does not exist', () => join(dir, 'missing.json'), /cannot read it \(ENOENT\)/],
  ])('a bad --data file (%s): exit code 1 with the message that names it', async (_name, make, message) => {
    // In process (what the bin runs); the built CLI with --data as a process is the test above's.
    const { code, stdout, stderr } = await cliInProcess(['serve', '--port', '0', '--data', make()])
    expect(code).toBe(1)
    expect(stderr).toMatch(message)
    expect(stderr).not.toContain('my-own-secret-key-1234')
    expect(stdout).not.toMatch(/listening/)
  })
})
