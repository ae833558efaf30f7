import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { DEFAULT_BASE_URL } from '../../../src/contract/index.js'
import { APIConnectionError, APIError, APITimeoutError, APIUserAbortError, ResponseValidationError } from '../../../src/index.js'
import { isOutage, OUTAGE_BACKOFF, outageDelayMs } from '../../../src/follow/outage-backoff.js'

const request = { method: 'GET', url: 'https://candles.example/v1/exchange_ohlcv' }

describe('the outage backoff: small first waits, doubling, capped at 60 s, with jitter', () => {
  test('the steps are 1 s, 2 s, 4 s ... capped at 60 s; each wait lies between half and all of its step', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((a) => outageDelayMs(a, () => 1))).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000])
    expect(outageDelayMs(1, () => 0)).toBe(500)
    expect(OUTAGE_BACKOFF.capMs).toBe(60_000)
  })

  test('property: every wait is positive, at most the cap, and never shorter than half the step before it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (attempt, r) => {
        const wait = outageDelayMs(attempt, () => r)
        expect(wait).toBeGreaterThan(0)
        expect(wait).toBeLessThanOrEqual(OUTAGE_BACKOFF.capMs)
        expect(wait).toBeGreaterThanOrEqual(Math.min(OUTAGE_BACKOFF.capMs, OUTAGE_BACKOFF.firstMs * 2 ** (attempt - 1)) / 2)
      }),
    )
  })
})

describe('an outage is what time can fix: no connection, a timeout, a 5xx, a 429; nothing else', () => {
  test.each([
    ['a connection failure', new APIConnectionError(request), true],
    ['a timeout', new APITimeoutError(request, 100), true],
    ['a 500', APIError.from(500, 'x', request), true],
    ['a 503', APIError.from(503, 'x', request), true],
    ['a 429', APIError.from(429, 'x', request), true],
    ['a 401', APIError.from(401, 'x', request), false],
    ['a 403', APIError.from(403, 'x', request), false],
    ['a 404', APIError.from(404, 'x', request), false],
    ['a 422', APIError.from(422, 'x', request), false],
    ['a body that fails validation', new ResponseValidationError(request, ['body: bad']), false],
    ['an abort', new APIUserAbortError(), false],
    ['the placeholder base URL, which never resolves', new APIConnectionError({ method: 'GET', url: `${DEFAULT_BASE_URL}/v1/exchange_ohlcv` }), false],
    ['a TypeError', new TypeError('bug'), false],
  ])('%s: %s', (_name, error, outage) => {
    expect(isOutage(error)).toBe(outage)
  })
})
