import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

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

  test.each([
    [['serve', '--port', 'abc'], /--port must be an integer/],
    [['serve', '--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['serve', '--latency', '-5'], /latency/],
    [['serve', '--now', 'tomorrow'], /--now must be an ISO 8601 datetime/],
    [['serve', '--bogus'], /Unknown option '--bogus'/],
    [['serve', 'extra'], /positional/i],
    [['launch'], /unknown command 'launch'/],
    [[], /Usage: market-candles serve/],
  ])('bad flags %j: a clear message and exit code 2', async (args, message) => {
    const cli = run(args)
    expect(await cli.exited).toBe(2)
    const { stdout, stderr } = cli.output()
    expect(stderr + stdout).toMatch(message)
  })
})
