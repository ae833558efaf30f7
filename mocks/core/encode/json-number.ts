/*
 * A number's JSON text written as bytes, the same text as `JSON.stringify` (ECMAScript
 * Number::toString), without V8's shortest-digits search in the common case.
 *
 * Why this is exact: when `x` is `m / 10^k` for an integer m < 10^15, the k-decimal text of m
 * round-trips to x, and no other text of at most 15 significant digits does (DBL_DIG is 15), so
 * once trailing fraction zeros are dropped it is the shortest round-trip text. Number::toString
 * writes that text in plain notation for 1e-6 <= |x| < 1e21. Every other number falls back to
 * `'' + x`. The default dataset's prices and volumes have at most 8 decimals, so they all take the
 * fast path.
 */

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
/** Up to 9 decimals the fraction digits fit an int32. */
const MAX_DECIMALS = 9
const ZERO = 48
const DOT = 46
const MINUS = 45
/** The two ASCII digits of 0..99. */
const PAIRS = new Uint8Array(200)
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = ZERO + ((i / 10) | 0)
  PAIRS[2 * i + 1] = ZERO + (i % 10)
}

/** Decimal digits of an int32 `v` >= 0. */
function digitCount(v: number): number {
  return v < 1e5
    ? v < 100 ? (v < 10 ? 1 : 2) : v < 1e3 ? 3 : v < 1e4 ? 4 : 5
    : v < 1e7 ? (v < 1e6 ? 6 : 7) : v < 1e8 ? 8 : v < 1e9 ? 9 : 10
}
/** Writes the n low digits of int32 v >= 0 (zero-padded), ending at `end`. */
function writeDigits(b: Uint8Array, end: number, v: number, n: number): void {
  let q = end
  while (n >= 2) {
    const t = (v / 100) | 0
    const r = (v - t * 100) << 1
    b[--q] = PAIRS[r + 1]!
    b[--q] = PAIRS[r]!
    v = t
    n -= 2
  }
  if (n === 1) b[--q] = ZERO + v
}

/**
 * Writes the JSON text of `x` at `p` (room for 32 bytes needed) and returns the end; returns -1
 * for NaN and ±Infinity, which JSON has no number for.
 */
export function writeJsonNumber(b: Uint8Array, p: number, x: number): number {
  if (x === 0) {
    b[p] = ZERO // -0 too, like JSON.stringify
    return p + 1
  }
  const a = x < 0 ? -x : x
  if (a >= 1e-6 && a < 1e15) {
    let k = MAX_DECIMALS
    while (a * POW10[k]! >= 1e15) k--
    const scale = POW10[k]!
    const m = Math.round(a * scale)
    if (m / scale === a) {
      if (x < 0) b[p++] = MINUS
      const ip = Math.floor(a) // = floor(m / scale), as m / scale === a
      let fp = (m - ip * scale) | 0
      if (ip < 2147483648) {
        const n = digitCount(ip)
        writeDigits(b, p + n, ip | 0, n)
        p += n
      } else {
        // Integer parts beyond int32: two halves.
        const hi = Math.floor(ip / 1e8) | 0
        const n = digitCount(hi)
        writeDigits(b, p + n, hi, n)
        writeDigits(b, p + n + 8, (ip - hi * 1e8) | 0, 8)
        p += n + 8
      }
      if (fp === 0) return p
      // Drop the fraction's trailing zeros.
      while (fp % 10000 === 0) { fp = (fp / 10000) | 0; k -= 4 }
      if (fp % 100 === 0) { fp = (fp / 100) | 0; k -= 2 }
      if (fp % 10 === 0) { fp = (fp / 10) | 0; k -= 1 }
      b[p] = DOT
      writeDigits(b, p + 1 + k, fp, k)
      return p + 1 + k
    }
  }
  if (!Number.isFinite(x)) return -1
  const text = '' + x
  for (let i = 0; i < text.length; i++) b[p++] = text.charCodeAt(i)
  return p
}
