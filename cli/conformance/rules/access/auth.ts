import { about, type Rule } from '../../rule.js'
import type { Answer } from '../../prober.js'
import { DECISION, IFACE } from '../../sources.js'
import { eachEndpoint } from '../shared/each-endpoint.js'

const detailOf = (a: Answer) => (a.body as { detail?: unknown } | undefined)?.detail

/**
 * Without a valid key a candle endpoint refuses the call (interface.md: it requires a key): never a
 * 2xx. How it refuses is D2's: 401 "Not authenticated" / "Invalid API key" with WWW-Authenticate.
 */
export const auth401: Rule = {
  id: 'auth-401',
  title: 'no X-API-Key, an empty, blank or unknown one: refused, never a 2xx; the reference: 401 "Not authenticated" / "Invalid API key" with WWW-Authenticate: APIKey',
  anchor: 'authentication',
  sources: [IFACE.keyRequired, DECISION.D2],
  async run(ctx) {
    await eachEndpoint(ctx, async (endpoint) => {
      const series = await ctx.facts.series(endpoint)
      const path = `/v1/${endpoint}`
      const cases: Array<[{ literal: string } | undefined, string]> = [
        [undefined, 'Not authenticated'],
        [{ literal: '' }, 'Not authenticated'],
        [{ literal: '   ' }, 'Not authenticated'],
        [{ literal: 'conformance-unknown-key-7f3a' }, 'Invalid API key'],
      ]
      for (const [key, detail] of cases) {
        const a = await ctx.prober.get(path, { ...series.params, limit: '1' }, key)
        if (!ctx.check(IFACE.keyRequired, a.status >= 400, about(a, 'a candle request without a valid key was not refused', 'an error status (4xx), not candles'))) continue
        ctx.check(DECISION.D2, a.status === 401 && detailOf(a) === detail, about(a, 'the refusal is not the reference\'s 401', `401 {"detail":"${detail}"}`))
        if (a.status === 401) ctx.check(DECISION.D2, a.headers['www-authenticate'] === 'APIKey', about(a, 'a 401 without WWW-Authenticate: APIKey', 'header WWW-Authenticate: APIKey', `WWW-Authenticate: ${a.headers['www-authenticate'] ?? '(absent)'}`))
      }
    })
  },
}

/** Authentication (401), then validation (422), then resolution (404), then plan (403): D3's order. */
export const orderOfChecks: Rule = {
  id: 'order-of-checks',
  title: 'a candle request is checked in order: 401, then 422, then 404, then 403',
  anchor: 'order-of-checks',
  sources: [DECISION.D3],
  async run(ctx) {
    const series = await ctx.facts.series('exchange_ohlcv')
    const path = '/v1/exchange_ohlcv'
    const badKey = await ctx.prober.get(path, { ...series.params, exchange: 'conformance-unknown-exchange', limit: '0' }, { literal: 'conformance-unknown-key-7f3a' })
    ctx.check(DECISION.D3, badKey.status === 401, about(badKey, 'an unknown key with bad parameters is not a 401', '401 (authentication comes first)'))
    if (ctx.key === undefined) ctx.skip('no API key for the checks after authentication: give --api-key-file')
    const invalid = await ctx.prober.get(path, { ...series.params, exchange: 'conformance-unknown-exchange', limit: '0' }, ctx.key)
    ctx.check(DECISION.D3, invalid.status === 422, about(invalid, 'a bad limit on an unknown exchange is not a 422', '422 (validation before resolution)'))
    const unknownOld = await ctx.prober.get(path, { ...series.params, exchange: 'conformance-unknown-exchange', start: '0001-01-01T00:00:00Z' }, ctx.key)
    ctx.check(DECISION.D3, unknownOld.status === 404, about(unknownOld, 'an unknown exchange with a start older than any plan reaches is not a 404', '404 (resolution before plan)'))
  },
}
