/*
 * A light description of a JSON value's shape and its checker: what the SDK validates 200 bodies
 * and cursors with, without zod in the client bundle. Each shape is tested to equal the one read
 * off its zod schema (test/schemas/wire-shapes.test.ts), and the checker to accept, reject and
 * report exactly as zod does with describeIssue, so the zod schemas stay the one source.
 */

/** The shape of a JSON value: the subset of zod the wire schemas use. */
export type Shape =
  | { readonly kind: 'string' }
  | { readonly kind: 'number' }
  | { readonly kind: 'format'; readonly format: 'datetime' | 'date'; readonly pattern: RegExp }
  /** Any string; anything else is reported with `message` (an open enum). */
  | { readonly kind: 'open-enum'; readonly message: string }
  | { readonly kind: 'one-of'; readonly values: readonly (string | number)[] }
  | { readonly kind: 'nullable'; readonly inner: Shape }
  | { readonly kind: 'array'; readonly element: Shape }
  /** Fields in order; other keys are dropped from the output, as zod does. */
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Shape>> }
  /** An object with string keys and values of one shape. */
  | { readonly kind: 'record'; readonly value: Shape }

export type ShapeResult = { ok: true; value: unknown } | { ok: false; problems: string[] }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

// zod's isPlainObject, which its record schema requires.
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false
  const ctor = (v as { constructor?: unknown }).constructor
  if (ctor === undefined || typeof ctor !== 'function') return true
  const proto: unknown = ctor.prototype
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf')
}

type Test = (v: unknown) => boolean

/** True when `v` passes and comes out as itself. */
const passes =
  (shape: Shape): Test =>
  (v) => {
    const problems: string[] = []
    return walk(shape, v, [], problems, '') === v && problems.length === 0
  }

/**
 * The fast path: true when `value` passes and the output is `value` itself (no key to drop).
 * An array of objects, a candle page, is tested by code generated once per shape: fields read by
 * name, strings, numbers, patterns and nullable strings tested inline, three times faster than
 * walking it. Other values, and every value where a Content-Security-Policy refuses code
 * generation, are walked.
 */
function compileTest(shape: Shape): Test | undefined {
  if (shape.kind === 'array') {
    const element = compileTest(shape.element)
    return element && ((v) => Array.isArray(v) && v.every(element))
  }
  if (shape.kind !== 'object') return passes(shape)
  const keys = Object.keys(shape.fields)
  const tests = keys.map((key) => passes(shape.fields[key]!))
  const patterns = keys.map((key) => (shape.fields[key] as { pattern?: RegExp }).pattern)
  const lines = keys.map((key, i) => {
    const field = shape.fields[key]!
    const string = (f: Shape) => f.kind === 'string' || f.kind === 'open-enum'
    const bad = string(field)
      ? `typeof x!='string'`
      : field.kind === 'number'
        ? `typeof x!='number'||!f(x)`
        : field.kind === 'format'
          ? `typeof x!='string'||!p[${i}].test(x)`
          : field.kind === 'nullable' && string(field.inner)
            ? `x!==null&&typeof x!='string'`
            : `!t[${i}](x)`
    return `x=v[${JSON.stringify(key)}];if(${bad})return!1;`
  })
  try {
    return new Function('t', 'p', 'f', `return function(v){if(typeof v!='object'||v===null||Array.isArray(v))return!1;let n=0,x;for(x in v)n++;if(n!==${keys.length})return!1;${lines.join('')}return!0}`)(
      tests,
      patterns,
      Number.isFinite,
    ) as Test
  } catch {
    return undefined
  }
}

const got = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/** The slow path: every problem, worded as describeIssue words zod's issues, and the output. */
function walk(shape: Shape, v: unknown, path: (string | number)[], problems: string[], root: string): unknown {
  const report = (what: string) => {
    const at = (root + path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')).replace(/^\./, '')
    problems.push(`${at === '' ? '' : `${at}: `}${what}`)
  }
  const expected = (type: string) => report(`expected ${type}, got ${got(v)}`)
  switch (shape.kind) {
    case 'string':
      if (typeof v !== 'string') expected('string')
      return v
    case 'number':
      if (!(typeof v === 'number' && Number.isFinite(v))) expected('number')
      return v
    case 'format':
      if (typeof v !== 'string') expected('string')
      else if (!shape.pattern.test(v)) report(`expected ${shape.format === 'datetime' ? 'an ISO 8601 datetime' : 'a YYYY-MM-DD date'}, got ${JSON.stringify(v)}`)
      return v
    case 'open-enum':
      if (typeof v !== 'string') report(shape.message)
      return v
    case 'one-of':
      if (!shape.values.includes(v as string | number)) report(`expected one of ${shape.values.map((x) => JSON.stringify(x)).join(', ')}`)
      return v
    case 'nullable':
      return v === null ? v : walk(shape.inner, v, path, problems, root)
    case 'array': {
      if (!Array.isArray(v)) return expected('array')
      const out = v.map((item, i) => {
        path.push(i)
        const checked = walk(shape.element, item, path, problems, root)
        path.pop()
        return checked
      })
      return out.every((item, i) => item === v[i]) ? v : out
    }
    case 'object': {
      if (!isObject(v)) return expected('object')
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(shape.fields)) {
        path.push(key)
        const value = walk(shape.fields[key]!, v[key], path, problems, root)
        path.pop()
        if (key in v || value !== undefined) out[key] = value
      }
      return out
    }
    case 'record': {
      if (!isPlainObject(v)) return expected('record')
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(v)) {
        path.push(key)
        out[key] = walk(shape.value, v[key], path, problems, root)
        path.pop()
      }
      return out
    }
  }
}

const tests = new WeakMap<Shape, Test | undefined>()

/**
 * Checks `value` against `shape`: the value (itself when nothing is dropped), or every problem
 * with its path under `root`, e.g. `body[3].close: expected number, got string`.
 */
export function checkShape(shape: Shape, value: unknown, root = ''): ShapeResult {
  if (!tests.has(shape)) tests.set(shape, compileTest(shape))
  if (tests.get(shape)?.(value)) return { ok: true, value }
  const problems: string[] = []
  const out = walk(shape, value, [], problems, root)
  return problems.length === 0 ? { ok: true, value: out } : { ok: false, problems }
}
