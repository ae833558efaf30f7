import { describe, expect, test } from 'vitest'
import { SERVICE_VARIANTS, createMockService, serviceVariantSchema, type MockResponse, type ServiceVariant } from '../../mocks/index.js'
import { REFERENCE_VARIANT, applyVariant, parseVariantText } from '../../mocks/core/variant/index.js'

const NOW = '2026-06-01T00:00:00Z'
const PRO = { 'x-api-key': 'demo-pro-key' }
const BASE = '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD'
const CANDLES = `${BASE}&limit=3`
const AGGREGATED = '/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&limit=3'
const PAIRS = '/v1/exchange_pairs?exchange=bitstamp&interval=1h'
const AGG_PAIRS = '/v1/aggregated_pairs?interval=1h'

type Row = Record<string, unknown>
const get = (variant: ServiceVariant | keyof typeof SERVICE_VARIANTS | undefined, url: string, headers: Record<string, string> = PRO) =>
  createMockService({ now: NOW, variant }).handle({ method: 'GET', url, headers })
const rows = (res: MockResponse) => res.body as Row[]

describe('variants: the reference fills the gaps of interface.md another common way, on request (D13)', () => {
  test('the default is the reference: every answer the same as with the variant {} and the preset "reference"', async () => {
    for (const url of [CANDLES, AGGREGATED, PAIRS, AGG_PAIRS, '/v1/exchanges', '/v1/assets', `${CANDLES}&limit=0`, '/v1/nope']) {
      const base = await get(undefined, url)
      expect(await get({}, url)).toEqual(base)
      expect(await get('reference', url)).toEqual(base)
    }
    const missing = await get(undefined, CANDLES, {})
    expect(missing.status).toBe(401)
    expect(missing.headers['www-authenticate']).toBe('APIKey')
    // Byte for byte: the reference's answer passes through as the very same object.
    const page = await get(undefined, CANDLES)
    expect(applyVariant(page, REFERENCE_VARIANT, true)).toBe(page)
    expect(applyVariant(page, { ...REFERENCE_VARIANT }, true)).toBe(page)
  })

  test.each([
    ['+00:00', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/],
    ['.000000+00:00', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000\+00:00$/],
    ['.000Z', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/],
  ] as const)('every timestamp field (close_ts, first_close_ts, last_close_ts) is written %s, the same instant as the reference writes', async (form, pattern) => {
    for (const [url, fields] of [[CANDLES, ['close_ts']], [AGGREGATED, ['close_ts']], [PAIRS, ['first_close_ts', 'last_close_ts']], [AGG_PAIRS, ['first_close_ts', 'last_close_ts']]] as const) {
      const reference = rows(await get(undefined, url))
      const varied = rows(await get({ timestamps: form }, url))
      expect(varied).toHaveLength(reference.length)
      varied.forEach((row, i) => {
        for (const field of fields) {
          expect(row[field]).toMatch(pattern)
          expect(Date.parse(row[field] as string)).toBe(Date.parse(reference[i]![field] as string))
        }
        // Nothing else changes.
        expect({ ...row, ...Object.fromEntries(fields.map((f) => [f, null])) }).toEqual({ ...reference[i], ...Object.fromEntries(fields.map((f) => [f, null])) })
      })
    }
  })

  test('a missing or empty key is 403 {"detail": "Not authenticated"} without a challenge; an unknown key stays 401', async () => {
    for (const headers of [{}, { 'x-api-key': '' }, { 'x-api-key': '  ' }] as Record<string, string>[]) {
      const res = await get({ missingKey: 403 }, CANDLES, headers)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ detail: 'Not authenticated' })
      expect(res.headers['www-authenticate']).toBeUndefined()
    }
    expect((await get({ missingKey: 403 }, CANDLES, { 'x-api-key': 'nope' })).status).toBe(401)
    // A plan's 403 is still a plan's.
    expect((await get({ missingKey: 403 }, '/v1/aggregated_ohlcv?interval=1m&base=BTC&quote=USD', { 'x-api-key': 'demo-free-key' })).status).toBe(403)
  })

  test('error bodies pydantic-v1: a 422 lists {loc, msg, type} issues; other errors stay {"detail": "..."}', async () => {
    const res = await get({ errorBodies: 'pydantic-v1' }, `${BASE}&limit=5000&start=yesterday`)
    expect(res.status).toBe(422)
    const detail = (res.body as { detail: Row[] }).detail
    expect(detail.length).toBeGreaterThan(0)
    for (const issue of detail) {
      expect(Object.keys(issue).sort()).toEqual(expect.arrayContaining(['loc', 'msg', 'type']))
      expect(issue).not.toHaveProperty('input')
      expect(String(issue.type)).toMatch(/^(value_error|type_error)/)
    }
    expect(detail).toContainEqual({ loc: ['query', 'limit'], msg: 'ensure this value is less than or equal to 1000', type: 'value_error.number.not_le', ctx: { limit_value: 1000 } })
    const missing = await get({ errorBodies: 'pydantic-v1' }, '/v1/exchange_ohlcv?interval=1h&base=BTC&quote=USD')
    expect((missing.body as { detail: Row[] }).detail).toContainEqual({ loc: ['query', 'exchange'], msg: 'field required', type: 'value_error.missing' })
    expect((await get({ errorBodies: 'pydantic-v1' }, '/v1/exchange_pairs?exchange=nope&interval=1h')).body).toEqual({ detail: "Unknown exchange 'nope'" })
  })

  test('error bodies detail-string: every error is {"detail": "..."}, a 422 too (its issues in one line)', async () => {
    const res = await get({ errorBodies: 'detail-string' }, `${BASE}&limit=5000`)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: 'query.limit: Input should be less than or equal to 1000' })
    expect((await get({ errorBodies: 'detail-string' }, CANDLES, {})).body).toEqual({ detail: 'Not authenticated' })
  })

  test('error bodies text: every error is text/plain, not JSON; a 200 stays JSON', async () => {
    const res = await get({ errorBodies: 'text' }, `${BASE}&limit=5000`)
    expect(res.status).toBe(422)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.body).toBe('query.limit: Input should be less than or equal to 1000')
    const notFound = await get({ errorBodies: 'text' }, '/v1/nope')
    expect([notFound.status, notFound.body, notFound.headers['content-type']]).toEqual([404, 'Not Found', 'text/plain; charset=utf-8'])
    const ok = await get({ errorBodies: 'text' }, CANDLES)
    expect(ok.headers['content-type']).toBe('application/json')
  })

  test.each([
    ['all', true, true],
    ['retry-after', false, true],
    ['none', false, false],
  ] as const)('rate-limit headers %s: RateLimit-* on 200s only with "all"; Retry-After on a 429 unless "none"', async (form, rateLimit, retryAfter) => {
    const service = createMockService({ now: NOW, variant: { rateLimitHeaders: form }, rateLimit: { perSecond: 2, clock: () => 0 } })
    const answers = []
    for (let i = 0; i < 3; i++) answers.push(await service.handle({ method: 'GET', url: CANDLES, headers: PRO }))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
    for (const ok of answers.slice(0, 2)) expect('ratelimit-remaining' in ok.headers).toBe(rateLimit)
    const limited = answers[2]!
    expect('ratelimit-limit' in limited.headers).toBe(rateLimit)
    expect('retry-after' in limited.headers).toBe(retryAfter)
    if (retryAfter) expect(limited.headers['retry-after']).toBe('1')
  })

  test('null fields omitted: a candle flag and an exchange closing_date without a value are left out, never written null', async () => {
    const candles = rows(await get({ nullFields: 'omit' }, `${CANDLES.replace('limit=3', 'limit=200')}`))
    const reference = rows(await get(undefined, `${CANDLES.replace('limit=3', 'limit=200')}`))
    expect(reference.some((c) => c.flag === null)).toBe(true)
    candles.forEach((c, i) => {
      expect(Object.values(c)).not.toContain(null)
      expect(c.flag ?? null).toBe(reference[i]!.flag)
      expect('flag' in c).toBe(reference[i]!.flag !== null)
    })
    const exchanges = rows(await get({ nullFields: 'omit' }, '/v1/exchanges'))
    expect(exchanges.some((e) => !('closing_date' in e))).toBe(true)
    for (const e of exchanges) expect(e.closing_date).not.toBeNull()
  })

  test('extra fields: every record carries fields interface.md does not list (id; ingested_at on candles), the listed ones unchanged', async () => {
    for (const url of [CANDLES, AGGREGATED, PAIRS, '/v1/exchanges', '/v1/assets']) {
      const reference = rows(await get(undefined, url))
      const varied = rows(await get({ extraFields: true }, url))
      varied.forEach((row, i) => {
        const { id, ingested_at, ...listed } = row
        expect(typeof id).toBe('string')
        expect(listed).toEqual(reference[i])
        if ('close_ts' in row) expect(ingested_at).toMatch(/\+00:00$/)
      })
    }
  })

  test('python-stack: +00:00 timestamps, 403 for a missing key, pydantic-v1 422s, Retry-After alone, null fields left out', async () => {
    expect(SERVICE_VARIANTS['python-stack']).toEqual({ timestamps: '+00:00', missingKey: 403, errorBodies: 'pydantic-v1', rateLimitHeaders: 'retry-after', nullFields: 'omit' })
    const page = await get('python-stack', CANDLES)
    expect(rows(page)[0]!.close_ts).toMatch(/\+00:00$/)
    expect(Object.keys(page.headers).filter((h) => h.startsWith('ratelimit'))).toEqual([])
    expect((await get('python-stack', CANDLES, {})).status).toBe(403)
  })

  test('every preset is a valid ServiceVariant; an unknown preset or field is a TypeError naming it', () => {
    for (const [name, variant] of Object.entries(SERVICE_VARIANTS)) expect(serviceVariantSchema.safeParse(variant).success, name).toBe(true)
    expect(() => createMockService({ variant: 'fastapi' as 'reference' })).toThrow(/Unknown variant preset "fastapi" \(known: reference, /)
    expect(() => createMockService({ variant: { timestamps: 'Z+0' } as unknown as ServiceVariant })).toThrow(/Invalid variant: timestamps/)
    expect(() => createMockService({ variant: { missingkey: 403 } as unknown as ServiceVariant })).toThrow(/Invalid variant/)
  })

  test('an injected fault answers as written: a variant never rewrites it', async () => {
    const service = createMockService({ now: NOW, variant: 'errors-text' })
    service.faults.add({ status: 503 })
    const res = await service.handle({ method: 'GET', url: CANDLES, headers: PRO })
    expect([res.status, res.body]).toEqual([503, { detail: 'Injected fault' }])
  })

  test('the journal records the status sent and the reason of the rule that refused', async () => {
    const service = createMockService({ now: NOW, variant: 'python-stack' })
    await service.handle({ method: 'GET', url: CANDLES })
    expect(service.requests()[0]).toMatchObject({ status: 403, reason: { rule: 'authentication', detail: 'Not authenticated' } })
  })
})

describe('variants per service and session, changed at run time', () => {
  test('a session takes its own variant; the root and other sessions keep theirs; reset restores the starting one', async () => {
    const service = createMockService({ now: NOW, variant: 'timestamps-offset' })
    service.session('py', { variant: 'python-stack' })
    const closeOf = async (url: string) => rows(await service.handle({ method: 'GET', url, headers: PRO }))[0]!.close_ts
    expect(await closeOf(CANDLES)).toMatch(/\+00:00$/)
    expect(await closeOf(`/_sessions/other${CANDLES}`)).toMatch(/\+00:00$/)
    expect((await service.handle({ method: 'GET', url: `/_sessions/py${CANDLES}` })).status).toBe(403)
    expect((await service.handle({ method: 'GET', url: CANDLES })).status).toBe(401)
    service.setVariant({ timestamps: '.000Z' })
    expect(service.variant.timestamps).toBe('.000Z')
    expect(await closeOf(CANDLES)).toMatch(/\.000Z$/)
    await service.reset()
    expect(service.variant).toMatchObject({ timestamps: '+00:00', missingKey: 401 })
    expect(() => service.setVariant({ nullFields: 'skip' } as unknown as ServiceVariant)).toThrow(/nullFields/)
    expect(service.variant.timestamps).toBe('+00:00')
  })

  test('PUT /_mock/variant takes the fields or {"preset": NAME} (the fields over it); GET answers the variant and its preset', async () => {
    const { handleControl } = await import('../../mocks/core/control-plane/control-plane.js')
    const service = createMockService({ now: NOW })
    const put = (body: unknown, s = service) => handleControl(s, { method: 'PUT', path: '/_mock/variant', body: JSON.stringify(body) })
    expect((await handleControl(service, { method: 'GET', path: '/_mock/variant', body: '' })).body).toEqual({
      variant: { timestamps: 'Z', missingKey: 401, errorBodies: 'pydantic-v2', rateLimitHeaders: 'all', nullFields: 'null', extraFields: false },
      preset: 'reference',
    })
    expect((await put({ preset: 'python-stack' })).body).toMatchObject({ preset: 'python-stack', variant: { missingKey: 403 } })
    expect((await put({ preset: 'python-stack', missingKey: 401 })).body).toMatchObject({ preset: null, variant: { missingKey: 401, timestamps: '+00:00' } })
    const bad = await put({ timestamps: 'UTC' })
    expect(bad.status).toBe(422)
    expect((bad.body as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'timestamps'])
    expect((await put({ preset: 'nope' })).status).toBe(422)
    expect((await put({ extra: true })).status).toBe(422)
    expect(service.variant.missingKey).toBe(401)
    const session = service.session('s1')
    await put({ errorBodies: 'text' }, session)
    expect(session.variant.errorBodies).toBe('text')
    expect(service.variant.errorBodies).toBe('pydantic-v1')
  })

  test('serve --variant text: a preset, field=value pairs, or a preset with pairs over it; a bad part is named', () => {
    expect(parseVariantText('python-stack')).toMatchObject(SERVICE_VARIANTS['python-stack'])
    expect(parseVariantText('timestamps=+00:00,missing-key=403,error-bodies=pydantic-v1,rate-limit-headers=retry-after,null-fields=omit,extra-fields')).toEqual({
      timestamps: '+00:00',
      missingKey: 403,
      errorBodies: 'pydantic-v1',
      rateLimitHeaders: 'retry-after',
      nullFields: 'omit',
      extraFields: true,
    })
    expect(parseVariantText('python-stack,missing-key=401').missingKey).toBe(401)
    expect(() => parseVariantText('python')).toThrow(/unknown preset or field 'python'/)
    expect(() => parseVariantText('missing-key=404')).toThrow(/missing-key must be 401 or 403/)
    expect(() => parseVariantText('timestamps=utc')).toThrow(/timestamps/)
    expect(() => parseVariantText('timestamps')).toThrow(/timestamps needs a value/)
    expect(() => parseVariantText('a,,b')).toThrow(/empty part/)
  })
})
