import { about, type Rule } from '../../rule.js'
import { DECISION } from '../../sources.js'

/** Unknown paths are 404 Not Found (a trailing slash too); another method on a known path is 405 with Allow: GET (D12). */
export const otherRequests: Rule = {
  id: 'other-requests',
  title: 'an unknown path (a trailing slash too) is 404 {"detail": "Not Found"}; another method on a known path is 405 with Allow: GET',
  anchor: 'other-requests',
  sources: [DECISION.D12],
  async run(ctx) {
    for (const path of ['/v1/conformance-unknown-path', '/v1/exchanges/']) {
      const a = await ctx.prober.get(path)
      ctx.check(DECISION.D12, a.status === 404 && (a.body as { detail?: unknown } | undefined)?.detail === 'Not Found', about(a, `${path} is not a 404`, '404 {"detail":"Not Found"}'))
    }
    // HEAD, a safe method: the check writes nothing even on a service that would take it.
    const head = await ctx.prober.get('/v1/exchanges', {}, undefined, { method: 'HEAD' })
    ctx.check(DECISION.D12, head.status === 405 && /\bGET\b/.test(head.headers.allow ?? ''), about(head, 'HEAD on a known path is not a 405 with Allow: GET', '405 with Allow: GET', `${head.status}, Allow: ${head.headers.allow ?? '(absent)'}`))
  },
}
