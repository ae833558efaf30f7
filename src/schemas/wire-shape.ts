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

function closureObjectTest(keys: string[], tests: Test[]): Test {
  const n = keys.length
  return (v) => {
    if (!isObject(v)) return false
    let count = 0
    for (const _ in v) count++
    if (count !== n) return false
    for (let i = 0; i < n; i++) if (!tests[i]!(v[keys[i]!])) return false
    return true
  }
}

/**
 * The same test as generated code, where the page allows it: fields read by name and strings,
 * numbers and patterns tested inline run three times faster on a candle page than through
 * closures. Undefined under a Content-Security-Policy without 'unsafe-eval'.
 */
function generatedObjectTest(shape: Extract<Shape, { kind: 'object' }>, keys: string[], tests: Test[]): Test | undefined {
  const lines = keys.map((key, i) => {
    const field = shape.fields[key]!
    const x = `v[${JSON.stringify(key)}]`
    const check =
      field.kind === 'string' || field.kind === 'open-enum'
        ? `typeof x !== 'string'`
        : field.kind === 'number'
          ? `typeof x !== 'number' || !isFinite(x)`
          : field.kind === 'format'
            ? `typeof x !== 'string' || !t[${i}](x)`
            : `!t[${i}](x)`
    return `x = ${x}; if (${check}) return false;`
  })
  const source = `return function (v) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    let n = 0; for (const _ in v) n++; if (n !== ${keys.length}) return false;
    let x; ${lines.join('\n')}
    return true;
  }`
  try {
    return new Function('t', 'isFinite', source)(tests, Number.isFinite) as Test
  } catch {
    return undefined
  }
}

/**
 * The fast path: true when `value` passes and the output is `value` itself (no key to drop).
 * Built once per shape from closures, so it runs where a Content-Security-Policy forbids eval.
 */
function compileTest(shape: Shape): Test {
  switch (shape.kind) {
    case 'string':
    case 'open-enum':
      return (v) => typeof v === 'string'
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v)
    case 'format': {
      const { pattern } = shape
      return (v) => typeof v === 'string' && pattern.test(v)
    }
    case 'one-of': {
      const { values } = shape
      return (v) => values.includes(v as string | number)
    }
    case 'nullable': {
      const inner = compileTest(shape.inner)
      return (v) => v === null || inner(v)
    }
    case 'array': {
      const element = compileTest(shape.element)
      return (v) => {
        if (!Array.isArray(v)) return false
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false
        return true
      }
    }
    case 'object': {
      const keys = Object.keys(shape.fields)
      const tests = keys.map((key) => compileTest(shape.fields[key]!))
      return generatedObjectTest(shape, keys, tests) ?? closureObjectTest(keys, tests)
    }
    case 'record': {
      const value = compileTest(shape.value)
      return (v) => {
        if (!isPlainObject(v)) return false
        for (const key in v) if (!Object.prototype.hasOwnProperty.call(v, key) || !value(v[key])) return false
        return true
      }
    }
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
      return v.map((item, i) => {
        path.push(i)
        const out = walk(shape.element, item, path, problems, root)
        path.pop()
        return out
      })
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

const tests = new WeakMap<Shape, Test>()

/**
 * Checks `value` against `shape`: the value (itself when nothing is dropped), or every problem
 * with its path under `root`, e.g. `body[3].close: expected number, got string`.
 */
export function checkShape(shape: Shape, value: unknown, root = ''): ShapeResult {
  let test = tests.get(shape)
  if (test === undefined) tests.set(shape, (test = compileTest(shape)))
  if (test(value)) return { ok: true, value }
  const problems: string[] = []
  const out = walk(shape, value, [], problems, root)
  return problems.length === 0 ? { ok: true, value: out } : { ok: false, problems }
}
