import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

async function serve(args: string[] = []) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr.on('data', (d) => (err += d))
  const exited = once(child, 'exit').then(([code]) => code as number)
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 15 s: ${out} ${err}`)), 15_000)
    child.stdout.on('data', (d) => {
      out += d
      const found = /^listening on (\S+)/m.exec(out)
      if (found) clearTimeout(timer), resolve(found[1]!)
    })
  })
  return { child, url, exited, stderr: () => err }
}

describe('the CLI: serve for every language (health, SIGTERM, the journal flag)', () => {
  test('SIGTERM closes the server cleanly: in-flight answers complete, exit 0', async () => {
    const { child, url, exited } = await serve()
    try {
      await fetch(`${url}/_mock/faults`, { method: 'POST', body: JSON.stringify({ kind: 'slow_body', duration_ms: 20_000, path: '/v1/exchange_ohlcv' }) })
      await fetch(`${url}/_mock/faults`, { method: 'POST', body: JSON.stringify({ kind: 'hang', path: '/v1/assets' }) })
      const slow = fetch(`${url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=3`, { headers: { 'X-API-Key': 'demo-pro-key' } })
      const hanging = fetch(`${url}/v1/assets`).then(() => 'answered', () => 'closed')
      // Both requests are in: the journal has them, and the slow body has begun.
      const arrived = await fetch(`${url}/_mock/requests?wait_for=2&timeout_ms=10000`)
      expect(arrived.status).toBe(200)
      const res = await slow
      expect(res.status).toBe(200)
      const t0 = performance.now()
      child.kill('SIGTERM')
      // The answer in flight completes (its slow body is sent whole at once), well before its 20 s.
      expect(await res.json()).toHaveLength(3)
      expect(performance.now() - t0).toBeLessThan(10_000)
      // A hanging request has no answer to complete: closing ends it.
      expect(await hanging).toBe('closed')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })

  test('SIGTERM the moment "listening on" arrives still closes cleanly: exit 0, not killed by the signal', async () => {
    // A supervisor signals as soon as it reads the first line; before the fix most such runs died by SIGTERM.
    for (let run = 0; run < 3; run++) {
      const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
      let out = ''
      child.stdout.on('data', (d) => {
        out += d
        if (out.includes('listening on') && child.signalCode === null && !child.killed) child.kill('SIGTERM')
      })
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      const [code, signal] = await exited
      clearTimeout(timer)
      expect({ code, signal, out: out.split('\n')[0] }).toEqual({ code: 0, signal: null, out: expect.stringMatching(/^listening on http:/) })
    }
  })

  test('GET /_mock/health answers 200 while serving; --journal-size 0 switches the journal off', async () => {
    const { child, url, exited } = await serve(['--journal-size', '0'])
    try {
      const health = await fetch(`${url}/_mock/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok', sessions: 0 })
      await fetch(`${url}/v1/assets`)
      expect(await (await fetch(`${url}/_mock/requests`)).json()).toEqual([])
      const wait = await fetch(`${url}/_mock/requests?wait_for=1&timeout_ms=10`)
      expect(wait.status).toBe(409)
      expect((await wait.json()).detail).toMatch(/journal is off/)
    } finally {
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  })

  test('a bad --journal-size is a usage error', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--journal-size', 'lots'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    const [code] = await once(child, 'exit')
    expect(code).not.toBe(0)
    expect(err).toMatch(/--journal-size must be an integer from 0 to 1000000, got 'lots'/)
  })
})
