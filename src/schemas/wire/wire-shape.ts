import { canonicalTimestamp, isCanonicalTimestamp, timestampProblem } from '../../contract/close-time.js'

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
  /** An ISO 8601 UTC datetime in any form (D13), coming out canonical (timestampSchema). */
  | { readonly kind: 'instant' }
  /** `inner`, or null when the field is left out (zod's default of null). */
  | { readonly kind: 'null-default'; readonly inner: Shape }
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
 * A JavaScript condition, true when the value in `x` fails `shape` (or would not come out as
 * itself); undefined when only walking it can tell. `p` names the shape's pattern.
 */
function failsInline(shape: Shape, x: string, p: string): string | undefined {
  switch (shape.kind) {
    case 'string':
    case 'open-enum':
      return `typeof ${x}!='string'`
    case 'number':
      return `typeof ${x}!='number'||!f(${x})`
    case 'format':
      return `typeof ${x}!='string'||!${p}.test(${x})`
    case 'instant':
      // An instant passes inline only when canonical (`k`, read by position: cheaper than a
      // pattern); any other form comes out rewritten.
      return `typeof ${x}!='string'||!k(${x})`
    case 'nullable': {
      const inner = failsInline(shape.inner, x, p)
      return inner && `${x}!==null&&(${inner})`
    }
    case 'null-default':
      // A field left out fails here, so the object comes out with the field set to null.
      return failsInline(shape.inner, x, p)
    case 'array':
      // An array of strings (an aggregated candle's exchanges): walking it costs more than the rest of the candle.
      return shape.element.kind === 'string' || shape.element.kind === 'open-enum' ? `!Array.isArray(${x})||!${x}.every(s)` : undefined
    default:
      return undefined
  }
}

const patternOf = (shape: Shape): RegExp | undefined =>
  shape.kind === 'format' ? shape.pattern : shape.kind === 'nullable' || shape.kind === 'null-default' ? patternOf(shape.inner) : undefined
const isString = (v: unknown) => typeof v === 'string'

/**
 * The fast path: true when `value` passes and the output is `value` itself (no key to drop).
 * An object, and an array of objects (a candle page), is tested by code generated once per shape:
 * one loop over the array, fields read by name, strings, numbers, patterns, nullable values and
 * arrays of strings tested inline, three times faster than walking it (aggregated candles, with
 * their arrays of exchanges, about thirty times). Other values, and every value where a
 * Content-Security-Policy refuses code generation, are walked.
 */
function compileTest(shape: Shape): Test | undefined {
  const object = shape.kind === 'array' ? shape.element : shape
  if (object.kind !== 'object') {
    if (shape.kind !== 'array') return passes(shape)
    const element = compileTest(shape.element)
    return element && ((v) => Array.isArray(v) && v.every(element))
  }
  const keys = Object.keys(object.fields)
  const fields = keys.map((key) => object.fields[key]!)
  const tests = fields.map((field) => passes(field))
  const patterns = fields.map(patternOf)
  // The checks of one object in `o`.
  const body =
    `if(typeof o!='object'||o===null||Array.isArray(o))return!1;let n=0,x;for(x in o)n++;if(n!==${keys.length})return!1;` +
    keys.map((key, i) => `x=o[${JSON.stringify(key)}];if(${failsInline(fields[i]!, 'x', `p[${i}]`) ?? `!t[${i}](x)`})return!1;`).join('')
  // Holes of an array fail here and are walked (walking skips them, as Array.prototype.every does).
  const source = shape.kind === 'array' ? `if(!Array.isArray(v))return!1;for(let i=0;i<v.length;i++){const o=v[i];${body}}return!0` : `const o=v;${body}return!0`
  try {
    return new Function('t', 'p', 'f', 's', 'k', `return function(v){${source}}`)(tests, patterns, Number.isFinite, isString, isCanonicalTimestamp) as Test
  } catch {
    return undefined
  }
}

/** Rebuilds a value into what it comes out as (see compileRepair); undefined when it has a problem. */
type Repair = (v: unknown) => unknown

/**
 * The path of an array of objects that passes but does not come out as itself, as another
 * deployment writes it (D13): timestamps in another form, a null field left out, fields the
 * interface does not list. Each object is rebuilt by code generated once per shape: its fields
 * read by name and checked inline as the fast path does, an instant made canonical, a missing
 * null-default set to null, other keys left behind. Undefined when a field's shape cannot be
 * checked inline (then every value is walked); the function answers undefined for a value with
 * any problem, which is then walked for its words.
 */
function compileRepair(shape: Shape, inPlace: boolean): Repair | undefined {
  if (shape.kind !== 'array' || shape.element.kind !== 'object') return undefined
  const object = shape.element
  const keys = Object.keys(object.fields)
  const fields = keys.map((key) => object.fields[key]!)
  const patterns = fields.map(patternOf)
  const name = (i: number) => JSON.stringify(keys[i])
  // In place (a body the caller owns): an object with no key the shape lacks is fixed where it
  // lies, no copy; one with other keys is rebuilt without them.
  const missing = fields.flatMap((field, i) => (field.kind === 'null-default' ? [`if(o[${name(i)}]===undefined)m++;`] : []))
  const lines: string[] = inPlace ? [`let n=0,m=0,y;for(y in o)n++;${missing.join('')}const own=n+m===${keys.length};`] : []
  const store = (i: number, value: string) => (inPlace ? `if(own)o[${name(i)}]=${value};` : '')
  for (const [i, field] of fields.entries()) {
    const x = `x${i}`
    const p = `p[${i}]`
    lines.push(`let ${x}=o[${name(i)}];`)
    if (field.kind === 'instant') {
      lines.push(`if(typeof ${x}!='string')return;if(!k(${x})){${x}=c(${x});if(${x}===undefined)return;${store(i, x)}}`)
      continue
    }
    const inner = field.kind === 'null-default' ? field.inner : field
    const fails = failsInline(inner, x, p)
    if (fails === undefined) return undefined
    lines.push(field.kind === 'null-default' ? `if(${x}===undefined){${x}=null;${store(i, 'null')}}else if(${fails})return;` : `if(${fails})return;`)
  }
  const literal = `{${keys.map((k, i) => `${JSON.stringify(k)}:x${i}`).join(',')}}`
  const one = `if(typeof o!='object'||o===null||Array.isArray(o))return;${lines.join('')}return ${inPlace ? `own?o:${literal}` : literal}`
  const source = `if(!Array.isArray(v))return;const out=new Array(v.length);for(let i=0;i<v.length;i++){const r=one(v[i]);if(r===undefined)return;out[i]=r}return out`
  try {
    return new Function('p', 'f', 's', 'c', 'k', `function one(o){${one}}return function(v){${source}}`)(patterns, Number.isFinite, isString, canonicalTimestamp, isCanonicalTimestamp) as Repair
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
    case 'instant': {
      if (typeof v !== 'string') {
        expected('string')
        return v
      }
      const canonical = canonicalTimestamp(v)
      if (canonical === undefined) report(timestampProblem(v))
      return canonical ?? v
    }
    case 'null-default':
      return v === undefined ? null : walk(shape.inner, v, path, problems, root)
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
const repairs = new WeakMap<Shape, Repair | undefined>()
const inPlaceRepairs = new WeakMap<Shape, Repair | undefined>()

/**
 * Checks `value` against `shape`: the value (itself when it comes out unchanged; a copy when a
 * timestamp is made canonical, a null field left out is set to null, or keys the shape does not
 * list are dropped), or every problem with its path under `root`, e.g.
 * `body[3].close: expected number, got string`. `owned`: the caller owns `value` (a body it just
 * parsed), so its objects may be fixed in place rather than copied; the output is the same.
 */
export function checkShape(shape: Shape, value: unknown, root = '', owned = false): ShapeResult {
  if (!tests.has(shape)) tests.set(shape, compileTest(shape))
  if (tests.get(shape)?.(value)) return { ok: true, value }
  const cache = owned ? inPlaceRepairs : repairs
  if (!cache.has(shape)) cache.set(shape, compileRepair(shape, owned))
  const repaired = cache.get(shape)?.(value)
  if (repaired !== undefined) return { ok: true, value: repaired }
  const problems: string[] = []
  const out = walk(shape, value, [], problems, root)
  return problems.length === 0 ? { ok: true, value: out } : { ok: false, problems }
}
