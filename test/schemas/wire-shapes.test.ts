import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type * as z from 'zod/mini'
import { createMockService } from '../../mocks/index.js'
import { describeIssue, responseSchemas, type EndpointName } from '../../src/contract/index.js'
import { pageCursorSchema } from '../../src/pagination/page-cursor-schema.js'
import { checkShape, type Shape } from '../../src/schemas/wire/wire-shape.js'
import { PAGE_CURSOR_SHAPE, RESPONSE_SHAPES } from '../../src/schemas/wire/wire-shapes.js'

/** The shape a zod schema describes, read off its definition; throws on a kind Shape lacks. */
function shapeOf(schema: z.ZodMiniType): Shape {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string }
  const checks = (def.checks as unknown[] | undefined) ?? []
  if (checks.length > 0) throw new Error(`${def.type} with checks has no shape`)
  switch (def.type) {
    case 'string':
      return def.format === undefined ? { kind: 'string' } : { kind: 'format', format: def.format as 'datetime' | 'date', pattern: def.pattern as RegExp }
    case 'number':
      return { kind: 'number' }
    case 'custom':
      return { kind: 'open-enum', message: (def.error as () => string)() }
    case 'nullable':
      return { kind: 'nullable', inner: shapeOf(def.innerType as z.ZodMiniType) }
    case 'default':
      if (def.defaultValue !== null) throw new Error('only a default of null has a shape')
      return { kind: 'null-default', inner: shapeOf(def.innerType as z.ZodMiniType) }
    case 'pipe': {
      // A codec: a string read in any form of a UTC instant, written as zod's datetime (timestampSchema).
      const out = shapeOf(def.out as z.ZodMiniType)
      if (out.kind !== 'format' || out.format !== 'datetime' || (def.in as z.ZodMiniType)._zod.def.type !== 'string') throw new Error('only the timestamp codec has a shape')
      return { kind: 'instant' }
    }
    case 'array':
      return { kind: 'array', element: shapeOf(def.element as z.ZodMiniType) }
    case 'object':
      return { kind: 'object', fields: Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodMiniType>).map(([k, v]) => [k, shapeOf(v)])) }
    case 'literal':
      return { kind: 'one-of', values: def.values as (string | number)[] }
    case 'enum':
      return { kind: 'one-of', values: Object.values(def.entries as Record<string, string>) }
    case 'record':
      if (shapeOf(def.keyType as z.ZodMiniType).kind !== 'string') throw new Error('record keys other than strings have no shape')
      return { kind: 'record', value: shapeOf(def.valueType as z.ZodMiniType) }
    default:
      throw new Error(`zod ${def.type} has no shape`)
  }
}

/**
 * What zod says of a value, in the SDK's words: its output, or every issue as describeIssue words
 * it (with the input kept on each issue, so describeIssue can name what it got).
 */
function zodVerdict(schema: z.ZodMiniType, value: unknown, root: string) {
  const parsed = schema.safeParse(value, { reportInput: true })
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: parsed.error.issues.map((issue) => describeIssue(issue, root)) }
}

const ENDPOINTS = Object.keys(RESPONSE_SHAPES) as EndpointName[]
const service = createMockService({ now: '2026-06-01T00:00:00Z' })
const PATHS: Record<EndpointName, string> = {
  exchanges: '/v1/exchanges',
  assets: '/v1/assets',
  exchange_pairs: '/v1/exchange_pairs?exchange=bitstamp&interval=1h',
  aggregated_pairs: '/v1/aggregated_pairs?interval=1h',
  exchange_ohlcv: '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=5',
  aggregated_ohlcv: '/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD&limit=5',
}
const bodies = Object.fromEntries(
  await Promise.all(ENDPOINTS.map(async (e) => [e, (await service.handle({ method: 'GET', url: PATHS[e], headers: { 'x-api-key': 'demo-enterprise-key' } })).body as Record<string, unknown>[]])),
) as Record<EndpointName, Record<string, unknown>[]>

/** Values a broken service might send in place of any field. */
const ODD_VALUES = [
  null, undefined, 0, -1.5, '', 'x', 'outlier', '2024-05-01T09:01:00Z', '2024-13-01T00:00:00Z', '2024-05-01', '2024-02-30', [], ['a', 1], {}, { a: 1 }, true,
  // other forms of a UTC instant (D13), and texts that are none
  '2024-05-01T09:01:00+00:00', '2024-05-01T09:01:00.000000+00:00', '2024-05-01T09:01:00.000Z', '2024-05-01T10:01:00+01:00', '2024-05-01T09:01:00', '2024-05-01 09:01:00Z', '2024-05-01T09:01:00.0000001Z',
]
const oddValue = fc.constantFrom(...ODD_VALUES)

describe('the SDK checks 200 bodies and cursors against plain shapes that restate the zod schemas', () => {
  test.each(ENDPOINTS)('the shape of %s equals the one read off its zod schema', (endpoint) => {
    expect(RESPONSE_SHAPES[endpoint]).toEqual(shapeOf(responseSchemas[endpoint]))
  })

  test('the shape of a page cursor equals the one read off pageCursorSchema', () => {
    expect(PAGE_CURSOR_SHAPE).toEqual(shapeOf(pageCursorSchema))
  })

  test.each(ENDPOINTS)('a valid %s body passes as the very object received (nothing copied)', (endpoint) => {
    const body = bodies[endpoint]
    expect(body.length).toBeGreaterThan(0)
    const checked = checkShape(RESPONSE_SHAPES[endpoint], body, 'body')
    expect(checked).toEqual({ ok: true, value: body })
    expect(checked.ok && checked.value).toBe(body)
  })

  test.each(ENDPOINTS)('any broken %s body gets the verdict and the problems zod gives, in its order', (endpoint) => {
    const body = bodies[endpoint]
    const keys = Object.keys(body[0]!)
    const edit = fc.record({ row: fc.nat(body.length - 1), key: fc.oneof(fc.constantFrom(...keys), fc.constant('extra')), value: oddValue, drop: fc.boolean() })
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const broken = body.map((row) => ({ ...row }))
        for (const { row, key, value, drop } of edits) {
          if (drop) delete broken[row]![key]
          else broken[row]![key] = value
        }
        const verdict = zodVerdict(responseSchemas[endpoint], broken, 'body')
        expect(checkShape(RESPONSE_SHAPES[endpoint], broken, 'body')).toEqual(verdict)
        // A body the caller owns (the client's own parse) may be fixed in place: the same verdict.
        expect(checkShape(RESPONSE_SHAPES[endpoint], structuredClone(broken), 'body', true)).toEqual(verdict)
      }),
      { numRuns: 300 },
    )
  })

  test.each(ENDPOINTS)('a %s body that is not an array of objects gets the problems zod gives', (endpoint) => {
    for (const value of [...ODD_VALUES, [null], [[]], ['x'], [1, {}]]) {
      expect(checkShape(RESPONSE_SHAPES[endpoint], value, 'body'), JSON.stringify(value)).toEqual(zodVerdict(responseSchemas[endpoint], value, 'body'))
    }
  })

  test('a nested array (an aggregated candle\'s exchanges) is checked element by element', () => {
    const [candle] = bodies.aggregated_ohlcv
    const broken = [{ ...candle, exchanges: ['bitstamp', 7, null] }]
    const checked = checkShape(RESPONSE_SHAPES.aggregated_ohlcv, broken, 'body')
    expect(checked).toEqual({ ok: false, problems: ['body[0].exchanges[1]: expected string, got number', 'body[0].exchanges[2]: expected string, got null'] })
    expect(checked).toEqual(zodVerdict(responseSchemas.aggregated_ohlcv, broken, 'body'))
  })

  test("an aggregated candle's exchanges, checked inline on a whole page, get the verdict and the problems zod gives", () => {
    const body = bodies.aggregated_ohlcv
    const list = fc.oneof(fc.array(fc.oneof(fc.string(), oddValue), { maxLength: 4 }), oddValue)
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(body.length - 1), list), { minLength: 1, maxLength: 3 }), (edits) => {
        const broken = body.map((row) => ({ ...row }))
        for (const [row, exchanges] of edits) broken[row]!.exchanges = exchanges
        const checked = checkShape(RESPONSE_SHAPES.aggregated_ohlcv, broken, 'body')
        expect(checked).toEqual(zodVerdict(responseSchemas.aggregated_ohlcv, broken, 'body'))
        if (checked.ok) expect(checked.value).toBe(broken)
      }),
      { numRuns: 300 },
    )
  })

  test('a cursor gets the verdict and the problems zod gives', () => {
    const good = { version: 1, endpoint: 'exchange_ohlcv', direction: 'backward', query: { exchange: 'bitstamp', end: '2026-01-01T00:00:00Z' } }
    const field = fc.constantFrom('version', 'endpoint', 'direction', 'query', 'extra')
    const value = fc.oneof(oddValue, fc.constantFrom(1, 2, 'forward', 'aggregated_ohlcv', { a: 'b' }, { a: 1 }, Object.create(null) as object))
    fc.assert(
      fc.property(fc.array(fc.tuple(field, value, fc.boolean()), { maxLength: 3 }), (edits) => {
        const cursor: Record<string, unknown> = { ...good, query: { ...good.query } }
        for (const [key, v, drop] of edits) {
          if (drop) delete cursor[key]
          else cursor[key] = v
        }
        expect(checkShape(PAGE_CURSOR_SHAPE, cursor, 'cursor')).toEqual(zodVerdict(pageCursorSchema, cursor, 'cursor'))
      }),
      { numRuns: 300 },
    )
    expect(checkShape(PAGE_CURSOR_SHAPE, 'x', 'cursor')).toEqual({ ok: false, problems: ['cursor: expected object, got string'] })
  })
})

describe('pages another deployment writes (D13)', () => {
  test.each(['exchange_ohlcv', 'aggregated_ohlcv', 'exchange_pairs', 'exchanges'] as const)('%s: timestamps +00:00, null fields left out, extra fields: zod\'s output, copied or fixed in place', (endpoint) => {
    const other = bodies[endpoint].map((row, i) => {
      const out: Record<string, unknown> = { id: i }
      for (const [key, value] of Object.entries(row)) {
        if (value === null) continue
        out[key] = typeof value === 'string' && /_ts$/.test(key) ? value.replace('Z', '.000000+00:00') : value
      }
      return out
    })
    const expected = zodVerdict(responseSchemas[endpoint], other, 'body')
    expect(expected.ok).toBe(true)
    expect(expected.value).toEqual(bodies[endpoint])
    const before = structuredClone(other)
    expect(checkShape(RESPONSE_SHAPES[endpoint], other, 'body')).toEqual(expected)
    expect(other).toEqual(before) // not owned: left as it was
    const owned = structuredClone(other)
    expect(checkShape(RESPONSE_SHAPES[endpoint], owned, 'body', true)).toEqual(expected)
    // Without extra keys, owned objects are fixed where they lie.
    const plain = structuredClone(other).map(({ id: _id, ...rest }) => rest)
    const fixed = checkShape(RESPONSE_SHAPES[endpoint], plain, 'body', true)
    expect(fixed).toEqual(expected)
    expect(fixed.ok && (fixed.value as unknown[])[0]).toBe(plain[0])
  })
})

describe('where a Content-Security-Policy forbids code generation', () => {
  test('the checker walks the value instead, with the same verdicts', () => {
    const original = globalThis.Function
    // A fresh shape, so its test is built now, with code generation refused.
    const shape = structuredClone(RESPONSE_SHAPES.exchange_ohlcv)
    globalThis.Function = function refused() {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed")
    } as unknown as FunctionConstructor
    let calls = 0
    try {
      const body = bodies.exchange_ohlcv
      expect(checkShape(shape, body, 'body')).toEqual({ ok: true, value: body })
      const broken = [{ ...body[0], close: 'x' }, ...body.slice(1)]
      expect(checkShape(shape, broken, 'body')).toEqual({ ok: false, problems: ['body[0].close: expected number, got string'] })
      calls++
    } finally {
      globalThis.Function = original
    }
    expect(calls).toBe(1)
  })
})
