import { request, type ClientRequest } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { MAX_CONTROL_BODY, MAX_DATA_BODY } from '../../mocks/core/control-plane/control-plane.js'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'

const PRO = { 'X-API-Key': 'demo-pro-key' }
const NOW = '2026-06-01T00:00:00Z'
const candle = (close_ts: string, extra: Record<string, unknown> = {}) => ({
  exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts,
  open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, source_provider: 'test', source_channel: 'rest', flag: null, ...extra,
})

describe('arranging data over HTTP: /_mock/data, /_mock/keys, /_mock/plans', () => {
  let server: RunningMockServer
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) })
    const text = await res.text()
    return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined }
  }
  const get = async (path: string, base = '') => (await call('GET', `${base}${path}`, undefined, PRO)).json
  /** A POST whose body `write` sends on the raw request, piece by piece; resolves with the answer. */
  const postWritten = (path: string, headers: Record<string, string>, write: (req: ClientRequest) => void) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method: 'POST', headers }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      req.on('error', reject)
      write(req)
    })
  const hours = (base = '', pair = 'base=BTC&quote=USD') => get(`/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&${pair}&start=2026-05-01T09:00:00Z&end=2026-05-01T12:00:00Z`, base)

  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: NOW })
  })
  beforeEach(() => server.service.reset())
  afterAll(() => server.close())

  test('POST /_mock/data/candles takes an array of candles, answers 200 {"candles": N}, and the API serves them', async () => {
    const res = await call('POST', '/_mock/data/candles', [candle('2026-05-01T10:00:00Z'), candle('2026-05-01T11:00:00Z', { close: 99 })])
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ candles: 2 })
    const served = await hours()
    expect(served.map((c: { close_ts: string; close: number; source_provider: string }) => [c.close_ts, c.close, c.source_provider])).toEqual([
      ['2026-05-01T09:00:00Z', expect.any(Number), expect.not.stringMatching(/^test$/)],
      ['2026-05-01T10:00:00Z', 105, 'test'],
      ['2026-05-01T11:00:00Z', 99, 'test'],
      ['2026-05-01T12:00:00Z', expect.any(Number), expect.not.stringMatching(/^test$/)],
    ])
  })

  test('a bad batch is a 422 naming every bad row by index and rule (loc ["body", INDEX, FIELD]), and nothing changes', async () => {
    const before = await hours()
    const res = await call('POST', '/_mock/data/candles', [
      candle('2026-05-01T10:00:00Z'),
      candle('2026-05-01T11:00:00Z', { low: 120 }),
      candle('2026-05-01T12:00:00Z'),
      candle('2026-05-01T13:30:00Z', { exchange: 'nowhere' }),
      candle('2026-05-01T10:00:00Z', { close: 101 }),
      { ...candle('2026-05-01T14:00:00Z'), open: 'cheap' },
    ])
    expect(res.status).toBe(422)
    const issues = res.json.detail as { type: string; loc: (string | number)[]; msg: string; input: unknown }[]
    expect(issues.map((i) => i.loc)).toEqual([
      ['body', 1, 'low'], ['body', 1, 'open'], ['body', 1, 'close'], ['body', 1, 'quote_volume'],
      ['body', 3, 'close_ts'], ['body', 3, 'exchange'],
      ['body', 4, 'close_ts'],
      ['body', 5, 'open'],
    ])
    expect(issues[0]).toMatchObject({ type: 'value_error', msg: 'Value error, low 120 is above high 110', input: 120 })
    expect(issues[5]).toMatchObject({ msg: expect.stringContaining("unknown exchange 'nowhere'"), input: 'nowhere' })
    expect(issues[6]!.msg).toMatch(/same series and close_ts as candles\[0\]/)
    expect(issues[7]).toMatchObject({ loc: ['body', 5, 'open'], input: 'cheap' })
    expect(await hours()).toEqual(before)
  })

  test.each([
    ['not JSON', '[{', { type: 'json_invalid', loc: ['body'] }],
    ['empty', '', { type: 'missing', loc: ['body'] }],
    ['an object, not an array', { exchange: 'bitstamp' }, { type: 'list_type', loc: ['body'] }],
  ])('a body that is %s is a 422 in the validation format', async (_name, body, issue) => {
    const res = await call('POST', '/_mock/data/candles', body)
    expect(res.status).toBe(422)
    expect(res.json.detail[0]).toMatchObject(issue)
  })

  test('DELETE /_mock/data/candles?exchange=&interval=&base=&quote=&from=&to= drops a stretch (inclusive bounds): a gap', async () => {
    const res = await call('DELETE', '/_mock/data/candles?exchange=bitstamp&interval=1h&base=BTC&quote=USD&from=2026-05-01T10:00:00Z&to=2026-05-01T11:00:00Z')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ candles: 2 })
    expect((await hours()).map((c: { close_ts: string }) => c.close_ts)).toEqual(['2026-05-01T09:00:00Z', '2026-05-01T12:00:00Z'])
  })

  test('DELETE with aggregated=true drops aggregated candles only; epoch milliseconds work as bounds', async () => {
    const at = Date.parse('2026-05-01T10:00:00Z')
    expect((await call('DELETE', `/_mock/data/candles?aggregated=true&interval=1h&base=BTC&quote=USD&from=${at}&to=${at}`)).json).toEqual({ candles: 1 })
    const agg = await get('/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&start=2026-05-01T09:00:00Z&end=2026-05-01T11:00:00Z')
    expect(agg.map((c: { close_ts: string }) => c.close_ts)).toEqual(['2026-05-01T09:00:00Z', '2026-05-01T11:00:00Z'])
    expect(await hours()).toHaveLength(4)
  })

  test.each([
    ['an unknown parameter', '?exchange=bitstamp&interval=1h&base=BTC&quote=USD&form=2026-01-01', [{ type: 'extra_forbidden', loc: ['query', 'form'] }]],
    ['both exchange and aggregated=true', '?exchange=bitstamp&aggregated=true&interval=1h&base=BTC&quote=USD', [{ type: 'value_error', loc: ['query', 'exchange'] }]],
    ['neither exchange nor aggregated, no quote', '?interval=1h&base=BTC', [{ type: 'missing', loc: ['query', 'exchange'] }, { type: 'missing', loc: ['query', 'quote'] }]],
    ['a parameter given twice', '?exchange=bitstamp&interval=1h&interval=1d&base=BTC&quote=USD', [{ type: 'string_type', loc: ['query', 'interval'], input: ['1h', '1d'] }]],
    ['a bound that is no datetime', '?exchange=bitstamp&interval=1h&base=BTC&quote=USD&from=yesterday', [{ type: 'value_error', loc: ['query', 'from'], input: 'yesterday' }]],
    ['an unknown exchange', '?exchange=nowhere&interval=1h&base=BTC&quote=USD', [{ type: 'value_error', loc: ['query', 'exchange'], input: 'nowhere' }]],
  ])('a bad DELETE query (%s) is a 422 with loc ["query", NAME], and nothing is removed', async (_name, query, issues) => {
    const res = await call('DELETE', `/_mock/data/candles${query}`)
    expect(res.status).toBe(422)
    expect(res.json.detail).toHaveLength(issues.length)
    issues.forEach((issue, i) => expect(res.json.detail[i]).toMatchObject(issue))
    expect(await hours()).toHaveLength(4)
  })

  test('PUT /_mock/data/assets/TICKER then POST candles: a new pair the API lists and serves', async () => {
    const asset = await call('PUT', '/_mock/data/assets/PEPE', { name: 'Pepe', asset_type: 'CRYPTO' })
    expect(asset.status).toBe(200)
    expect(asset.json).toEqual({ ticker: 'PEPE', name: 'Pepe', asset_type: 'CRYPTO' })
    expect((await get('/v1/assets')).some((a: { ticker: string }) => a.ticker === 'PEPE')).toBe(true)
    const pepe = { base: 'PEPE', open: 1, high: 1.1, low: 0.9, close: 1, base_volume: 100, quote_volume: 100 }
    expect((await call('POST', '/_mock/data/candles', [candle('2026-05-01T10:00:00Z', pepe), candle('2026-05-01T11:00:00Z', pepe)])).json).toEqual({ candles: 2 })
    expect((await hours('', 'base=PEPE&quote=USD')).map((c: { close_ts: string }) => c.close_ts)).toEqual(['2026-05-01T10:00:00Z', '2026-05-01T11:00:00Z'])
  })

  test('PUT /_mock/data/exchanges/NAME adds an exchange; POST /_mock/data/generate gives it a procedural series', async () => {
    const put = await call('PUT', '/_mock/data/exchanges/kraken', { creation_date: '2013-09-10', closing_date: null })
    expect(put.json).toEqual({ name: 'kraken', creation_date: '2013-09-10', closing_date: null })
    expect((await get('/v1/exchanges')).some((e: { name: string }) => e.name === 'kraken')).toBe(true)
    const generated = await call('POST', '/_mock/data/generate', { exchange: 'kraken', interval: '1h', base: 'ETH', quote: 'EUR', from: '2026-05-01T00:00:00Z', to: '2026-05-01T23:00:00Z', seed: 7, price: 3000 })
    expect(generated.status).toBe(200)
    expect(generated.json).toEqual({ candles: 24 })
    const served = await get('/v1/exchange_ohlcv?exchange=kraken&interval=1h&base=ETH&quote=EUR&start=2026-05-01T00:00:00Z&limit=100')
    expect(served).toHaveLength(24)
  })

  test('a path that disagrees with the body (exchange name, ticker, plan id) is a 422 with loc ["path", NAME]', async () => {
    for (const [path, body, loc] of [
      ['/_mock/data/exchanges/kraken', { name: 'binance', creation_date: '2017-07-14', closing_date: null }, ['path', 'name']],
      ['/_mock/data/assets/PEPE', { ticker: 'WIF', name: 'Pepe', asset_type: 'CRYPTO' }, ['path', 'ticker']],
      ['/_mock/plans/tiny', { id: 'huge', endpoints: {} }, ['path', 'name']],
    ] as const) {
      const res = await call('PUT', path, body)
      expect(res.status, path).toBe(422)
      expect(res.json.detail[0]).toMatchObject({ type: 'value_error', loc })
    }
    expect((await get('/v1/exchanges')).some((e: { name: string }) => e.name === 'kraken' || e.name === 'binance')).toBe(false)
  })

  test('a bad exchange, asset or generate body is a 422 naming the field (loc ["body", FIELD])', async () => {
    expect((await call('PUT', '/_mock/data/exchanges/kraken', { creation_date: 'soon', closing_date: null })).json.detail[0]).toMatchObject({ loc: ['body', 'creation_date'], input: 'soon' })
    expect((await call('PUT', '/_mock/data/exchanges/kraken', { creation_date: '2020-01-02', closing_date: '2020-01-01' })).json.detail[0]).toMatchObject({ loc: ['body', 'closing_date'] })
    expect((await call('PUT', '/_mock/data/assets/PEPE', { name: 'Pepe' })).json.detail[0]).toMatchObject({ loc: ['body', 'asset_type'] })
    const gen = await call('POST', '/_mock/data/generate', { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', from: '2026-05-02' })
    expect(gen.status).toBe(422)
    expect(gen.json.detail[0]).toMatchObject({ loc: ['body', 'to'], input: null })
  })

  test('POST /_mock/data/reset puts the data back as the service started; 204', async () => {
    await call('DELETE', '/_mock/data/candles?exchange=bitstamp&interval=1h&base=BTC&quote=USD&from=2026-04-30&to=2026-05-02')
    expect(await hours()).toEqual([])
    expect((await call('POST', '/_mock/data/reset')).status).toBe(204)
    expect(await hours()).toHaveLength(4)
  })

  test('PUT /_mock/plans/NAME and PUT /_mock/keys/KEY: a key on a new account and plan works at once; the key is never echoed', async () => {
    const key = 'it-key-a91f3c77'
    const plan = await call('PUT', '/_mock/plans/tiny', { endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } })
    expect(plan.json).toEqual({ id: 'tiny', endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } })
    expect((await call('GET', '/_mock/plans')).json.map((p: { id: string }) => p.id)).toContain('tiny')
    const put = await call('PUT', `/_mock/keys/${key}`, { account: 'acct_tiny', plan: 'tiny' })
    expect(put.status).toBe(200)
    expect(put.json).toEqual({ account: 'acct_tiny', plan: 'tiny' })
    const res = await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: { 'X-API-Key': key } })
    expect(res.status).toBe(200)
    const daily = await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1d&base=BTC&quote=USD&limit=1`, { headers: { 'X-API-Key': key } })
    expect(daily.status).toBe(403)
    const refused = await call('PUT', `/_mock/keys/${key}`, { account: 'acct_other', plan: 'platinum', color: 'red' })
    expect(refused.status).toBe(422)
    expect(refused.json.detail.map((i: { loc: string[] }) => i.loc)).toEqual([['body', 'color']])
    const unknownPlan = await call('PUT', `/_mock/keys/${key}`, { account: 'acct_other', plan: 'platinum' })
    expect(unknownPlan.json.detail[0]).toMatchObject({ loc: ['body', 'plan'], input: 'platinum' })
    const spaced = await call('PUT', `/_mock/keys/%20${key}`, { account: 'acct_tiny' })
    expect(spaced.json.detail[0]).toMatchObject({ loc: ['path', 'key'], input: null })
    for (const answer of [put, refused, unknownPlan, spaced]) expect(answer.text).not.toContain(key.slice(3))
  })

  test('over HTTP, each session arranges its own world: a change in one is seen by no other session and not by the root', async () => {
    const a = '/_sessions/arrange-a'
    const b = '/_sessions/arrange-b'
    expect((await call('POST', `${a}/_mock/data/candles`, [candle('2026-05-01T10:00:00Z', { close: 101 })])).json).toEqual({ candles: 1 })
    expect((await call('DELETE', `${b}/_mock/data/candles?exchange=bitstamp&interval=1h&base=BTC&quote=USD&from=2026-05-01T10:00:00Z&to=2026-05-01T10:00:00Z`)).json).toEqual({ candles: 1 })
    await call('PUT', `${b}/_mock/data/assets/PEPE`, { name: 'Pepe', asset_type: 'CRYPTO' })
    const closes = (candles: { close_ts: string; close: number }[]) => candles.map((c) => `${c.close_ts.slice(11, 13)}:${c.close}`)
    expect(closes(await hours(a))[1]).toBe('10:101')
    expect((await hours(b)).map((c: { close_ts: string }) => c.close_ts.slice(11, 13))).toEqual(['09', '11', '12'])
    expect(await hours()).toHaveLength(4)
    expect(closes(await hours())[1]).not.toBe('10:101')
    expect((await get('/v1/assets', b)).some((x: { ticker: string }) => x.ticker === 'PEPE')).toBe(true)
    expect((await get('/v1/assets', a)).some((x: { ticker: string }) => x.ticker === 'PEPE')).toBe(false)
    expect((await get('/v1/assets')).some((x: { ticker: string }) => x.ticker === 'PEPE')).toBe(false)
    // A session's data reset is its own too.
    expect((await call('POST', `${a}/_mock/data/reset`)).status).toBe(204)
    expect(closes(await hours(a))[1]).not.toBe('10:101')
    expect(await hours(b)).toHaveLength(3)
  })

  test('another method on a data route is 405 with Allow', async () => {
    for (const [method, path, allow] of [
      ['GET', '/_mock/data/candles', 'POST, DELETE'],
      ['DELETE', '/_mock/data/exchanges/kraken', 'PUT'],
      ['GET', '/_mock/keys/some-key', 'PUT'],
      ['POST', '/_mock/plans', 'GET'],
      ['GET', '/_mock/data/reset', 'POST'],
    ] as const) {
      const res = await call(method, path)
      expect(res.status, `${method} ${path}`).toBe(405)
      expect(res.headers.get('allow')).toBe(allow)
    }
    expect((await call('PUT', '/_mock/data/exchanges/')).status).toBe(404)
    expect((await call('PUT', '/_mock/data/exchanges/a/b')).status).toBe(404)
  })

  test(`a batch of 100,000 candles is accepted (about 25 MB: under MAX_DATA_BODY, ${MAX_DATA_BODY / 2 ** 20} MiB)`, async () => {
    const first = Date.parse('2026-01-01T00:00:00Z')
    const batch = Array.from({ length: 100_000 }, (_, i) => ({ ...candle(new Date(first + i * 60_000).toISOString()), interval: '1m' }))
    const body = JSON.stringify(batch)
    expect(body.length).toBeGreaterThan(MAX_CONTROL_BODY)
    const res = await call('POST', '/_sessions/big/_mock/data/candles', body)
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ candles: 100_000 })
  }, 60_000)

  test.each([
    ['with a Content-Length', true],
    ['chunked (no Content-Length)', false],
  ])('a batch that arrives in pieces (%s) is applied exactly as one parse: the same answer and the same candles served', async (_name, declared) => {
    const first = Date.parse('2026-05-01T00:00:00Z')
    const batch = Array.from({ length: 3000 }, (_, i) => ({ ...candle(new Date(first + i * 60_000).toISOString(), { source_provider: i % 5 ? 'test' : 'other', flag: i % 7 ? null : 'outlier' }), interval: '1m' }))
    const bytes = Buffer.from(JSON.stringify(batch))
    // Pieces of 1 to ~4000 bytes, each written after the last left: the server reads them as they come.
    const headers: Record<string, string> = declared ? { 'content-length': String(bytes.length) } : { 'transfer-encoding': 'chunked' }
    const answer = await postWritten('/_sessions/pieces/_mock/data/candles', { 'content-type': 'application/json', ...headers }, (req) => {
      let at = 0
      let n = 0
      const next = () => {
        if (at >= bytes.length) return void req.end()
        const size = 1 + ((n++ * 7919) % 4001)
        req.write(bytes.subarray(at, (at += size)), () => setImmediate(next))
      }
      next()
    })
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ candles: 3000 }) })
    const reference = server.service.session('reference')
    reference.data.putCandles(batch)
    const page = (session: string, start: string) => get(`/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&start=${start}&limit=1000`, `/_sessions/${session}`)
    for (const start of ['2026-04-30T23:00:00Z', '2026-05-01T16:00:00Z', '2026-05-02T01:00:00Z']) expect(await page('pieces', start)).toEqual(await page('reference', start))
  }, 60_000)

  test('a body over MAX_DATA_BODY is a 413 with a JSON detail, and nothing changes; other data routes keep the 64 KiB limit', async () => {
    const before = await hours()
    const row = JSON.stringify(candle('2026-05-01T10:00:00Z', { close: 101 }))
    const big = `[${Array.from({ length: Math.ceil(MAX_DATA_BODY / row.length) + 1 }, () => row).join(',')}]`
    expect(big.length).toBeGreaterThan(MAX_DATA_BODY)
    const res = await call('POST', '/_mock/data/candles', big)
    expect(res.status).toBe(413)
    expect(res.json.detail).toMatch(/too large: POST \/_mock\/data\/candles takes at most 67108864 bytes \(64 MiB\)/)
    expect(await hours()).toEqual(before)
    const small = await call('PUT', '/_mock/data/assets/PEPE', { name: 'x'.repeat(MAX_CONTROL_BODY), asset_type: 'CRYPTO' })
    expect(small.status).toBe(413)
    expect(small.json.detail).toMatch(/65536 bytes \(64 KiB\)/)
  }, 60_000)

  test('a chunked body (no Content-Length) is counted as it arrives: past MAX_DATA_BODY a 413, the rest dropped', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x20) // 1 MiB of spaces
    const answer = await postWritten('/_mock/data/candles', { 'transfer-encoding': 'chunked' }, (req) => {
      let sent = 0
      const more = () => {
        while (sent <= MAX_DATA_BODY + chunk.length) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', more)
        }
        req.end()
      }
      more()
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).detail).toMatch(/too large/)
  }, 60_000)
})
