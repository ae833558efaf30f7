import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMockService } from '../../mocks/index.js'
import { createHandlers } from '../../mocks/msw/index.js'
import { startMockServer } from '../../mocks/server/index.js'
import { runBounded } from '../support/child-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const NOW = '2026-06-01T00:00:00Z'
const BASE = '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD'
const PRO = { 'X-API-Key': 'demo-pro-key' }

describe('variants over HTTP: createMockServer / serve and the /_mock/variant route', () => {
  let server: Awaited<ReturnType<typeof startMockServer>>
  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: NOW, variant: 'errors-text' })
  })
  afterAll(() => server.close())

  test('a text error body goes out as text/plain with its byte length; a 200 as JSON', async () => {
    const res = await fetch(`${server.url}${BASE}&limit=5000`, { headers: PRO })
    expect(res.status).toBe(422)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const text = await res.text()
    expect(text).toBe('query.limit: Input should be less than or equal to 1000')
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    const ok = await fetch(`${server.url}${BASE}&limit=2`, { headers: PRO })
    expect(ok.headers.get('content-type')).toBe('application/json')
    expect(await ok.json()).toHaveLength(2)
  })

  test('PUT /_mock/variant changes the next answers; under /_sessions/NAME only that session\'s; reset restores the started one', async () => {
    const put = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
    const session = await put('/_sessions/py/_mock/variant', { preset: 'python-stack' })
    expect(session.status).toBe(200)
    expect(await session.json()).toMatchObject({ preset: 'python-stack', variant: { timestamps: '+00:00', missingKey: 403 } })
    const inSession = await fetch(`${server.url}/_sessions/py${BASE}&limit=1`, { headers: PRO })
    expect((await inSession.json())[0].close_ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
    expect((await fetch(`${server.url}/_sessions/py${BASE}`)).status).toBe(403)
    expect((await fetch(`${server.url}${BASE}`)).status).toBe(401)
    const root = await (await fetch(`${server.url}/_mock/variant`)).json()
    expect(root).toMatchObject({ preset: 'errors-text' })
    const bad = await put('/_mock/variant', { timestamps: '+01:00' })
    expect(bad.status).toBe(422)
    expect((await bad.json()).detail[0].loc).toEqual(['body', 'timestamps'])
    expect((await put('/_mock/variant', { missingKey: 403 })).status).toBe(200)
    expect((await fetch(`${server.url}${BASE}`)).status).toBe(403)
    expect((await fetch(`${server.url}/_mock/reset`, { method: 'POST' })).status).toBe(204)
    expect(await (await fetch(`${server.url}/_mock/variant`)).json()).toMatchObject({ preset: 'errors-text' })
  })

  test('the control plane\'s OpenAPI documents GET and PUT /_mock/variant', async () => {
    const doc = await (await fetch(`${server.url}/_mock/openapi.json`)).json()
    expect(Object.keys(doc.paths['/_mock/variant'])).toEqual(['get', 'put'])
    expect(doc.components.schemas.VariantPut.properties.timestamps.enum).toEqual(['Z', '+00:00', '.000000+00:00', '.000Z'])
  })
})

describe('variants through MSW handlers', () => {
  test('the handlers answer as the service\'s variant says: timestamps, text errors, no RateLimit-*', async () => {
    const handlers = createHandlers(createMockService({ now: NOW, variant: { timestamps: '.000000+00:00', errorBodies: 'text', rateLimitHeaders: 'none' } }), { baseUrl: 'https://candles.test' })
    const ask = async (url: string) => (await getResponse(handlers, new Request(`https://candles.test${url}`, { headers: PRO })))!
    const page = await ask(`${BASE}&limit=1`)
    expect((await page.json())[0].close_ts).toMatch(/T\d\d:\d\d:\d\d\.000000\+00:00$/)
    expect(page.headers.get('ratelimit-remaining')).toBeNull()
    const refused = await ask(`${BASE}&limit=0`)
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await refused.text()).toBe('query.limit: Input should be greater than or equal to 1')
  })
})

describe('market-candles serve --variant', () => {
  test('a preset with pairs over it applies from the first answer and is printed; GET /_mock/variant says which', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--now', NOW, '--variant', 'python-stack,extra-fields'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (d) => (stdout += d))
    const exited = once(child, 'exit')
    try {
      await new Promise<void>((resolve, reject) => {
        // A CLI start took seconds on a loaded machine (DEVELOPERS.md): a wide margin.
        const timer = setTimeout(() => reject(new Error(`no "variant:" line in 30 s: ${stdout}`)), 30_000)
        child.stdout.on('data', () => stdout.includes('Ctrl-C') && (clearTimeout(timer), resolve()))
      })
      const url = stdout.split('\n')[0]!.replace('listening on ', '')
      expect(stdout).toContain('variant: timestamps +00:00, missing key 403, error bodies pydantic-v1, rate-limit headers retry-after, null fields omit, extra fields on')
      const row = (await (await fetch(`${url}${BASE}&limit=1`, { headers: PRO })).json())[0]
      expect(row.close_ts).toMatch(/\+00:00$/)
      expect(row).toHaveProperty('id')
      expect((await fetch(`${url}${BASE}`)).status).toBe(403)
      expect(await (await fetch(`${url}/_mock/variant`)).json()).toMatchObject({ preset: null, variant: { extraFields: true, missingKey: 403 } })
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  }, 45_000)

  test('a bad --variant is a usage error naming the bad part', async () => {
    const run = await runBounded(process.execPath, [CLI, 'serve', '--port', '0', '--variant', 'timestamps=+01:00'], { timeoutMs: 30_000 })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--variant: timestamps: /)
  }, 45_000)
})
