import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { EXPLICIT_NOW, HOUR, T0, explicitDataset } from '../support/fixtures.js'
import { ENTERPRISE, TRANSPORTS, qs, type Transport } from '../support/transports.js'

const EX = '/v1/exchange_ohlcv'
const ALPHA = { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD' }
/** A candle's close_ts, whole seconds, as the service writes it (without the Z). */
const at = new Date(T0 + 10 * HOUR).toISOString().slice(0, 19)
const DIGITS = [1, 2, 3, 4, 5, 6, 7, 8, 9]
/** `at` plus the smallest step of `n` fractional digits: `.1`, `.01`, ... `.000000001`. */
const justAfter = (n: number) => `${at}.${'0'.repeat(n - 1)}1Z`
/** `at` minus the smallest step of `n` fractional digits: `.9`, `.99`, ... of the second before. */
const justBefore = (n: number) => `${new Date(T0 + 10 * HOUR - 1000).toISOString().slice(0, 19)}.${'9'.repeat(n)}Z`

describe.each(TRANSPORTS)('bounds compare as exact instants, sub-millisecond digits included, via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
  })
  afterAll(() => t.close())

  const closes = async (params: Record<string, string>) => {
    const res = await t.get(`${EX}${qs({ ...ALPHA, limit: '3', ...params })}`, ENTERPRISE)
    expect(res.status).toBe(200)
    return res.body.map((c: { close_ts: string }) => c.close_ts)
  }

  test.each(DIGITS)('a start %i fractional digits after a close_ts never admits that candle', async (n) => {
    expect((await closes({ start: justAfter(n) }))[0]).not.toBe(`${at}Z`)
    expect((await closes({ start: `${at}.${'0'.repeat(n)}Z` }))[0]).toBe(`${at}Z`)
  })

  test.each(DIGITS)('an end %i fractional digits before a close_ts never admits that candle', async (n) => {
    expect((await closes({ end: justBefore(n) })).at(-1)).not.toBe(`${at}Z`)
    expect((await closes({ end: `${at}.${'0'.repeat(n)}Z` })).at(-1)).toBe(`${at}Z`)
  })

  test.each(DIGITS)('start after end by %i fractional digits is a 422, start equal to end is not', async (n) => {
    const res = await t.get(`${EX}${qs({ ...ALPHA, start: justAfter(n), end: `${at}Z` })}`, ENTERPRISE)
    expect(res.status).toBe(422)
    expect(res.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['query', 'end'] })
    expect((await t.get(`${EX}${qs({ ...ALPHA, start: justAfter(n), end: justAfter(n) })}`, ENTERPRISE)).status).toBe(200)
  })
})
