import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMockService } from '../../mocks/index.js'
import { PRO, TRANSPORTS, type Transport } from '../support/transports.js'

const BASE = 'exchange=bitstamp&interval=1h&base=BTC&quote=USD'
const EX = '/v1/exchange_ohlcv'

describe.each(TRANSPORTS)('bad input gets its 4xx, never a 5xx, via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ now: '2026-06-01T00:00:00Z', rateLimit: false })
  })
  afterAll(() => t.close())

  const issue = async (query: string) => {
    const res = await t.get(`${EX}?${query}`, PRO)
    expect(res.status, query).toBe(422)
    return res.body.detail
  }

  test('missing: each required parameter, type "missing", input null', async () => {
    for (const name of ['exchange', 'interval', 'base', 'quote']) {
      const query = BASE.split('&').filter((p) => !p.startsWith(`${name}=`)).join('&')
      expect(await issue(query)).toEqual([{ type: 'missing', loc: ['query', name], msg: 'Field required', input: null }])
    }
  })

  test('empty: an empty string value is reported like a missing one, with the raw input ""', async () => {
    expect(await issue(BASE.replace('base=BTC', 'base='))).toEqual([{ type: 'missing', loc: ['query', 'base'], msg: 'Field required', input: '' }])
    expect(await issue(`${BASE}&limit=`)).toEqual([
      { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '' },
    ])
    expect((await issue(`${BASE}&start=`))[0]).toMatchObject({ type: 'datetime_from_date_parsing', loc: ['query', 'start'], input: '' })
  })

  test('repeated: a parameter given twice is a value_error naming both values', async () => {
    expect(await issue(`${BASE}&limit=5&limit=6`)).toEqual([
      { type: 'value_error', loc: ['query', 'limit'], msg: 'Value error, expected one value, got 2', input: ['5', '6'], ctx: { error: 'expected one value, got 2' } },
    ])
  })

  test('garbage and out of range limit: int_parsing, greater_than_equal, less_than_equal', async () => {
    for (const bad of ['abc', '1.5', '1e3', '0x10', '--1', ' ']) expect((await issue(`${BASE}&limit=${encodeURIComponent(bad)}`))[0].type).toBe('int_parsing')
    expect(await issue(`${BASE}&limit=0`)).toEqual([{ type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } }])
    expect((await issue(`${BASE}&limit=-5`))[0].type).toBe('greater_than_equal')
    expect(await issue(`${BASE}&limit=1001`)).toEqual([{ type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 1000', input: '1001', ctx: { le: 1000 } }])
    expect((await issue(`${BASE}&limit=99999999999999999999999`))[0].type).toBe('less_than_equal')
  })

  test('unparseable dates: datetime_from_date_parsing, for any unparseable datetime', async () => {
    for (const bad of ['yesterday', '2024-13-01', '2024-02-30', '2023-02-29', '2024-01-01T25:00:00Z', '2024-01-01T10:61', '1714550400000', '2024/01/01', '2024-01-01T00:00:00+25:00', '2024-01-01Z']) {
      const [first] = await issue(`${BASE}&end=${encodeURIComponent(bad)}`)
      expect(first, bad).toMatchObject({ type: 'datetime_from_date_parsing', loc: ['query', 'end'], input: bad })
      expect(first.msg).toMatch(/^Input should be a valid datetime or date, /)
    }
  })

  test('start after end: value_error whose loc names the later one (end)', async () => {
    expect(await issue(`${BASE}&start=2024-02-01&end=2024-01-31T23:59:59Z`)).toEqual([
      { type: 'value_error', loc: ['query', 'end'], msg: 'Value error, start must not be after end', input: '2024-01-31T23:59:59Z', ctx: { error: 'start must not be after end' } },
    ])
  })

  test('several bad parameters: one issue per bad parameter', async () => {
    const detail = await issue('interval=1h&limit=0&start=nope')
    expect(detail.map((i: { loc: string[] }) => i.loc[1])).toEqual(['exchange', 'base', 'quote', 'start', 'limit'])
  })

  test('valid datetime forms are accepted: Z, numeric offset, fractional seconds, bare date, no zone', async () => {
    for (const ok of ['2026-05-01T00:00:00Z', '2026-05-01T02:00:00+02:00', '2026-05-01T00:00:00.123456Z', '2026-05-01', '2026-05-01T00:00:00', '2026-05-01T00:00:00-0130']) {
      const res = await t.get(`${EX}?${BASE}&start=${encodeURIComponent(ok)}&limit=1`, PRO)
      expect(res.status, ok).toBe(200)
    }
    const offset = await t.get(`${EX}?${BASE}&start=${encodeURIComponent('2026-05-01T02:00:00+02:00')}&limit=1`, PRO)
    expect(offset.body[0].close_ts).toBe('2026-05-01T00:00:00Z')
  })

  test('unknown values: 404 naming the value; values are matched exactly (case-sensitive)', async () => {
    for (const [q, detail] of [
      [BASE.replace('bitstamp', 'BITSTAMP'), "Unknown exchange 'BITSTAMP'"],
      [BASE.replace('interval=1h', 'interval=60m'), "Unknown interval '60m'"],
      [BASE.replace('BTC', 'btc'), "No candles for btc/USD on exchange 'bitstamp' at interval '1h'"],
    ] as const) {
      const res = await t.get(`${EX}?${q}`, PRO)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ detail })
    }
  })
})

describe('no query string makes the core answer 5xx or throw (property)', () => {
  const service = createMockService({ now: '2026-06-01T00:00:00Z', rateLimit: false, validateResponses: true })
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom('', '1h', '1m', '1d', 'bitstamp', 'ftx', 'BTC', 'USD', '0', '1000', '1001', '-1', '2024-01-01', '2026-05-31T00:00:00Z', 'omm_vwap_v1', '%', '\u0000', '💥'),
    fc.integer().map(String),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  )
  const param = fc.tuple(fc.constantFrom('exchange', 'interval', 'base', 'quote', 'start', 'end', 'limit', 'method', 'other'), value)
  const path = fc.constantFrom('/v1/exchange_ohlcv', '/v1/aggregated_ohlcv', '/v1/exchange_pairs', '/v1/aggregated_pairs', '/v1/exchanges', '/v1/assets')

  test('any parameters, repeated or not, answer 200, 401, 403, 404 or 422 with a documented error body', async () => {
    await fc.assert(
      fc.asyncProperty(path, fc.array(param, { maxLength: 10 }), fc.constantFrom(undefined, 'demo-pro-key', 'demo-free-key', 'x'), async (p, params, key) => {
        const search = new URLSearchParams(params)
        const res = await service.handle({ method: 'GET', url: `${p}?${search}`, headers: key === undefined ? {} : { 'X-API-Key': key } })
        expect([200, 401, 403, 404, 422]).toContain(res.status)
      }),
      { numRuns: 1500 },
    )
  })

  test('raw garbage paths answer 404 or 405, never throw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.constantFrom('GET', 'POST', 'HEAD', 'get', 'DELETE'), async (junk, method) => {
        const res = await service.handle({ method, url: `/${junk}` })
        expect([200, 401, 404, 405, 422]).toContain(res.status)
      }),
      { numRuns: 500 },
    )
  })
})
