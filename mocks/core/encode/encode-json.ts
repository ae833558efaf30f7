/*
 * The server's response encoder: `Buffer.from(JSON.stringify(body))`, byte for byte, in a fraction
 * of the CPU time for the body that dominates the server's work, a page of candles.
 *
 * A page is an array of flat objects sharing one key order. For each key order a row writer is
 * generated once (as fast-json-stringify does): key text is constant bytes, numbers go through
 * writeJsonNumber, and a run of string or null fields that repeat from row to row (exchange,
 * interval, base, quote...) is copied as one cached chunk while its values stay the same. A body
 * or row outside that shape (nested values, a string needing escapes, another key order, a
 * non-finite number, a toJSON) is left to JSON.stringify, so the output never differs.
 */
import type { BytePool } from './byte-pool.js'
import { writeJsonNumber } from './json-number.js'

type Row = Record<string, unknown>
/** Writes one row at `p` and returns the end, or FALLBACK. */
type RowWriter = (row: Row, b: Uint8Array, p: number) => number

const FALLBACK = -1
/** Longer strings are left to JSON.stringify, so a row's size has a fixed bound. */
const MAX_STRING = 256
const NUMBER_ROOM = 32

function writeString(b: Uint8Array, p: number, s: string): number {
  const n = s.length
  if (n > MAX_STRING) return FALLBACK
  b[p++] = 34
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) return FALLBACK // needs escaping or UTF-8
    b[p++] = c
  }
  b[p] = 34
  return p + 1
}

function writeAscii(b: Uint8Array, p: number, s: string): number {
  for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i)
  return p
}

function writeValue(b: Uint8Array, p: number, v: unknown): number {
  if (typeof v === 'number') return writeJsonNumber(b, p, v)
  if (typeof v === 'string') return writeString(b, p, v)
  if (v === null) return writeAscii(b, p, 'null')
  if (typeof v === 'boolean') return writeAscii(b, p, v ? 'true' : 'false')
  return FALLBACK
}

interface RowEncoder {
  write: RowWriter
  /** The most bytes one row can take. */
  maxBytes: number
}

const isRepeatable = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || v === null

/**
 * Which fields are written from a cached chunk: those whose value is a string, boolean or null
 * equal in the page's first two rows. Only a choice of speed: any row is still written exactly.
 */
function cachedFields(keys: readonly string[], first: Row, second: Row | undefined): boolean[] {
  return keys.map((key) => isRepeatable(first[key]) && (second === undefined || second[key] === first[key]))
}

/** Generates the row writer of one key order and choice of cached fields. */
function compileRowEncoder(keys: readonly string[], cached: readonly boolean[]): RowEncoder {
  const lit = (s: string) => JSON.stringify(s)
  const prefixes = keys.map((key, i) => Buffer.from(`${i === 0 ? '{' : ','}${lit(key)}:`))
  const writeField = (i: number) => {
    const prefix = prefixes[i]!
    return `${[...prefix].map((byte, j) => `b[p + ${j}] = ${byte};`).join(' ')}\np = writeValue(b, p + ${prefix.length}, v${i}); if (p < 0) return ${FALLBACK};\n`
  }

  let state = ''
  let body = `const ks = Object.keys(row);\nif (ks.length !== ${keys.length}${keys.map((k, i) => ` || ks[${i}] !== ${lit(k)}`).join('')}) return ${FALLBACK};\n`
  if (keys.length === 0) body += 'b[p++] = 123;\n' // the opening brace is otherwise in the first key's text
  for (let i = 0; i < keys.length; ) {
    if (!cached[i]) {
      body += `const v${i} = row[${lit(keys[i]!)}];\n${writeField(i)}`
      i++
      continue
    }
    // A run of cached fields: its bytes (key text included) are one chunk while the values repeat.
    let end = i
    while (end < keys.length && cached[end]) end++
    const run = Array.from({ length: end - i }, (_, j) => i + j)
    state += `let chunk${i} = NONE; ${run.map((j) => `let last${j} = NONE;`).join(' ')}\n`
    body += run.map((j) => `const v${j} = row[${lit(keys[j]!)}];\n`).join('')
    body += `if (${run.map((j) => `v${j} === last${j}`).join(' && ')}) { b.set(chunk${i}, p); p += chunk${i}.length; } else {\n`
    body += `const from = p;\n${run.map(writeField).join('')}`
    body += `chunk${i} = b.slice(from, p); ${run.map((j) => `last${j} = v${j};`).join(' ')}\n}\n`
    i = end
  }
  body += 'b[p] = 125;\nreturn p + 1;'
  const source = `const NONE = new Uint8Array(0);\n${state}return function writeRow(row, b, p) {\n${body}\n}`
  const write = new Function('writeValue', source)(writeValue) as RowWriter
  const fixed = prefixes.reduce((sum, prefix) => sum + prefix.length, 2)
  return { write, maxBytes: fixed + keys.length * Math.max(MAX_STRING + 2, NUMBER_ROOM) }
}

// JSON.stringify would call a toJSON, own or inherited.
const isPlainObject = (v: unknown): v is Row =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype && !('toJSON' in v)

// One writer per key order and choice of cached fields, generated on first use. Bounded, in case a
// custom store serves rows of ever-new shapes.
const encoders = new Map<string, RowEncoder>()
const MAX_ENCODERS = 64

function rowEncoder(rows: readonly unknown[], first: Row): RowEncoder {
  const keys = Object.keys(first)
  const cached = cachedFields(keys, first, rows.length > 1 && isPlainObject(rows[1]) ? rows[1] : undefined)
  const signature = `${keys.join('\u0000')}\u0001${cached.map(Number).join('')}`
  let encoder = encoders.get(signature)
  if (!encoder) {
    if (encoders.size >= MAX_ENCODERS) encoders.clear()
    encoders.set(signature, (encoder = compileRowEncoder(keys, cached)))
  }
  return encoder
}

/** A first guess at a page's size; the buffer doubles as needed, and the pool keeps the largest. */
const FIRST_BYTES = 1 << 16

function encodeRows(rows: readonly unknown[], pool: BytePool): Buffer | undefined {
  const first = rows[0]
  if (!isPlainObject(first)) return undefined
  const { write, maxBytes } = rowEncoder(rows, first)
  let b = pool.take(FIRST_BYTES)
  let p = 0
  b[p++] = 91
  for (let i = 0; i < rows.length; i++) {
    if (p + maxBytes + 2 > b.length) {
      const grown = pool.take(Math.max(b.length * 2, p + maxBytes + 2))
      grown.set(b.subarray(0, p))
      pool.give(b)
      b = grown
    }
    if (i > 0) b[p++] = 44
    const row = rows[i]
    if (!isPlainObject(row)) p = FALLBACK
    else p = write(row, b, p)
    if (p < 0) {
      pool.give(b)
      return undefined
    }
  }
  b[p++] = 93
  return Buffer.from(b.buffer, b.byteOffset, p)
}

/**
 * The UTF-8 bytes of `JSON.stringify(body)`. The result may be a view into a buffer of `pool`:
 * give it back (`pool.give(bytes)`) once nothing reads it any more, or never.
 *
 * @example
 * const pool = new BytePool()
 * encodeJson([{ a: 1.5, b: 'x' }], pool).toString() // '[{"a":1.5,"b":"x"}]'
 */
export function encodeJson(body: unknown, pool: BytePool): Buffer {
  const fast = Array.isArray(body) && body.length > 0 ? encodeRows(body, pool) : undefined
  return fast ?? Buffer.from(JSON.stringify(body))
}
