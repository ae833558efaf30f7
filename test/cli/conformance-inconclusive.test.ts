import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../cli/conformance/index.js'
import { createMockService, type MockResponse } from '../../mocks/index.js'
import { startMockServer } from '../../mocks/server/index.js'

const DIR = mkdtempSync(join(tmpdir(), 'conformance-inconclusive-'))
writeFileSync(join(DIR, 'key'), 'demo-enterprise-key\n')
afterAll(() => rmSync(DIR, { recursive: true, force: true }))

const RATE = /^ratelimit-/i
/** A 16-digit integer, as a mock generating values from the OpenAPI schema (Prism) sends. */
const random = () => String(1e15 + Math.floor(Math.random() * 8e15))

/** Ways a service can answer RateLimit-* headers that do not show its usage, and what the rules must say. */
const HEADERS: Array<[string, (headers: Record<string, string>) => Record<string, string>, RegExp]> = [
  ['absent', () => ({}), /no RateLimit-Limit and RateLimit-Remaining header/],
  ['random, as a mock of the OpenAPI document sends them', () => ({ 'ratelimit-limit': random(), 'ratelimit-remaining': random(), 'ratelimit-reset': random() }), /RateLimit-Remaining \d+ is above RateLimit-Limit|RateLimit-Limit changed|not \d+ \(Limit - 1\)|did not fall/],
  ['fixed, as a mock of the documented example sends them', () => ({ 'ratelimit-limit': '10', 'ratelimit-remaining': '9', 'ratelimit-reset': '1' }), /did not fall with a counted call/],
  ['not whole numbers', (h) => ({ ...h, 'ratelimit-remaining': `${h['ratelimit-remaining']}.0` }), /are not a count of calls/],
  ['Remaining above Limit', (h) => ({ ...h, 'ratelimit-remaining': String(Number(h['ratelimit-remaining']) + 20) }), /RateLimit-Remaining \d+ is above RateLimit-Limit 10/],
]

/** The reference service over HTTP, its candle answers' RateLimit-* headers replaced by `change`. */
async function runWith(change: (headers: Record<string, string>) => Record<string, string>) {
  const service = createMockService({ now: '2025-01-01T00:00:00Z' })
  const server = await startMockServer({
    port: 0,
    service: {
      ...service,
      handle: async (request) => {
        const res: MockResponse = await service.handle(request)
        const rate = Object.fromEntries(Object.entries(res.headers).filter(([k]) => RATE.test(k)).map(([k, v]) => [k.toLowerCase(), String(v)]))
        if (Object.keys(rate).length === 0) return res
        return { ...res, headers: { ...Object.fromEntries(Object.entries(res.headers).filter(([k]) => !RATE.test(k))), ...change(rate) } }
      },
    },
  })
  try {
    const out: string[] = []
    const json = join(DIR, `${Math.random().toString(36).slice(2)}.json`)
    const code = await runConformance(['--base-url', server.url, '--api-key-file', join(DIR, 'key'), '--json', json, '--only', 'catalog-not-counted', '--only', 'errors-not-counted'], { out: (l) => out.push(l), err: (l) => out.push(l), env: {} })
    return { code, out: out.join('\n'), rules: JSON.parse(readFileSync(json, 'utf8')).rules as Array<{ id: string; verdict: string; reason?: string }> }
  } finally {
    await server.close()
  }
}

describe('conformance: a rule passes only on evidence', () => {
  test.concurrent.each(HEADERS)('catalog-not-counted and errors-not-counted are skipped as inconclusive, saying why, when RateLimit-* headers are %s', async (_name, change, why) => {
    const run = await runWith(change)
    expect(run.rules.map((r) => [r.id, r.verdict]), run.out).toEqual([['catalog-not-counted', 'skip'], ['errors-not-counted', 'skip']])
    for (const rule of run.rules) expect(rule.reason, run.out).toMatch(/^inconclusive: /)
    for (const rule of run.rules) expect(rule.reason, run.out).toMatch(why)
    expect(run.out).toMatch(/^SKIP  catalog-not-counted .*\n\s+sources: interface\.md#auth-2\n\s+skipped: inconclusive: /m)
    expect(run.code).toBe(0)
  }, 60_000)
})
