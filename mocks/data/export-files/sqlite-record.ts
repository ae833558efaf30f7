import { NotAsExpected } from './sqlite-page-file.js'

/**
 * The pieces of SQLite's file format that every b-tree page and record share: varints, the size
 * of a value by its serial type, a record decoded whole (for sqlite_master). Every read is
 * bounds-checked: anything out of place throws {@link NotAsExpected}.
 */

/** Where the last {@link readVarint} ended (no object per call). */
export const varint = { next: 0 }

/** The varint at `p` (1 to 9 bytes, ending before `end`); values past 2^53 lose precision, which no size or page number reaches. */
export function readVarint(b: Uint8Array, p: number, end: number): number {
  let v = 0
  for (let i = 0; i < 8; i++) {
    if (p >= end) throw new NotAsExpected()
    const x = b[p++]!
    v = v * 128 + (x & 0x7f)
    if (x < 0x80) {
      varint.next = p
      return v
    }
  }
  if (p >= end) throw new NotAsExpected()
  v = v * 256 + b[p++]!
  varint.next = p
  return v
}

/** Bytes of serial types 0 to 11 (10 and 11 are reserved: -1). */
const FIXED = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1]

/** The size of a value of serial type `t` in a record's body. */
export function serialSize(t: number): number {
  if (t >= 12) {
    if (t > 0x7fffffff) throw new NotAsExpected()
    return (t - 12) >>> 1
  }
  const n = FIXED[t]!
  if (n < 0) throw new NotAsExpected()
  return n
}

/** An integer or float value (serial types 1 to 9) as a number; anything else throws. An 8-byte integer is rounded once, as SQLite converts it. */
export function numberOf(b: Uint8Array, data: DataView, t: number, o: number): number {
  switch (t) {
    case 7:
      return data.getFloat64(o)
    case 1:
      return data.getInt8(o)
    case 2:
      return data.getInt16(o)
    case 3:
      return ((b[o]! << 24) >> 8) | (b[o + 1]! << 8) | b[o + 2]!
    case 4:
      return data.getInt32(o)
    case 5:
      return data.getInt16(o) * 4294967296 + data.getUint32(o + 2)
    case 6:
      return data.getInt32(o) * 4294967296 + data.getUint32(o + 4)
    case 8:
      return 0
    case 9:
      return 1
    default:
      throw new NotAsExpected()
  }
}

/** UTF-8 as node:sqlite gives it: a byte-order mark kept; a byte sequence that is not UTF-8 throws (node:sqlite would replace it). */
export const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A record's values at `p` (its payload, `size` bytes, all on the page): NULL, numbers, text, blobs as bytes. */
export function decodeRecord(b: Uint8Array, data: DataView, p: number, size: number): Array<null | number | string | Uint8Array> {
  const end = p + size
  const headerSize = readVarint(b, p, end)
  let q = varint.next
  const headerEnd = p + headerSize
  if (headerEnd > end || headerEnd < q) throw new NotAsExpected()
  let body = headerEnd
  const out: Array<null | number | string | Uint8Array> = []
  while (q < headerEnd) {
    const t = readVarint(b, q, headerEnd)
    q = varint.next
    const n = serialSize(t)
    if (body + n > end) throw new NotAsExpected()
    if (t === 0) out.push(null)
    else if (t < 12) out.push(numberOf(b, data, t, body))
    else if (t % 2 === 1) out.push(utf8.decode(b.subarray(body, body + n)))
    else out.push(b.slice(body, body + n))
    body += n
  }
  if (body !== end) throw new NotAsExpected()
  return out
}

/**
 * The b-tree page at `base` of `b` whose header is `h` bytes in (100 on page 1): its type (0x02/0x0A
 * index interior/leaf, 0x05/0x0D table interior/leaf), its cell count and where its cell pointers
 * start (from the page's start), checked to fit the page's `usable` bytes.
 */
export function pageCells(b: Uint8Array, base: number, h: number, usable: number): { type: number; cells: number; pointers: number } {
  const type = b[base + h]!
  const interior = type === 0x02 || type === 0x05
  if (!interior && type !== 0x0a && type !== 0x0d) throw new NotAsExpected()
  const cells = (b[base + h + 3]! << 8) | b[base + h + 4]!
  const pointers = h + (interior ? 12 : 8)
  if (pointers + 2 * cells > usable) throw new NotAsExpected()
  return { type, cells, pointers }
}

/** Cell `i`'s offset from the page's start, checked to lie past the pointers and within the usable bytes. */
export function cellAt(b: Uint8Array, base: number, pointers: number, cells: number, i: number, usable: number): number {
  const at = base + pointers + 2 * i
  const off = (b[at]! << 8) | b[at + 1]!
  if (off < pointers + 2 * cells || off >= usable) throw new NotAsExpected()
  return off
}

/** The big-endian 4-byte page number at `p`. */
export function pageNumber(b: Uint8Array, p: number): number {
  return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0
}
