import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { CANONICAL_TIMESTAMP, canonicalTimestamp, formatTimestamp, isCanonicalTimestamp, parseTimestamp } from '../../src/contract/index.js'

/** The reference writer: Date's ISO text, without `.000`. */
const viaDate = (ms: number): string => {
  const iso = new Date(ms).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso
}

const YEAR_0 = Date.parse('0000-01-01T00:00:00.000Z')
const YEAR_9999_END = Date.parse('9999-12-31T23:59:59.999Z')
const DAY = 86_400_000
const anyInstant = fc.integer({ min: YEAR_0, max: YEAR_9999_END })
const wholeSecond = anyInstant.map((t) => t - (((t % 1000) + 1000) % 1000))

/** Every way interface.md's "ISO 8601 UTC datetime" may be written for `ms` (D13). */
function utcForms(ms: number): fc.Arbitrary<string> {
  const iso = new Date(ms).toISOString() // YYYY-MM-DDTHH:MM:SS.sssZ
  const seconds = iso.slice(0, 19)
  const milli = iso.slice(20, 23)
  // Any number of digits that keeps the milliseconds: none when they are zero, up to nine.
  const fraction = fc.tuple(fc.integer({ min: milli.replace(/0+$/, '').length, max: 9 }), fc.constantFrom('.', ',')).map(([digits, sep]) => (digits === 0 ? '' : `${sep}${milli.padEnd(9, '0').slice(0, digits)}`))
  const zone = fc.constantFrom('Z', 'z', '+00:00', '+0000', '-00:00', '-0000', '+00', '-00')
  const t = fc.constantFrom('T', 't')
  return fc.tuple(t, fraction, zone).map(([sep, frac, z]) => `${seconds.slice(0, 10)}${sep}${seconds.slice(11)}${frac}${z}`)
}

describe('the close-time module reads every ISO 8601 form of a UTC instant (D13)', () => {
  test('a close_ts written with Z, z, +00:00, +0000, -00:00 or fractional seconds is the same instant and is handed on canonical (property)', () => {
    fc.assert(
      fc.property(anyInstant.chain((ms) => fc.tuple(fc.constant(ms), utcForms(ms))), ([ms, text]) => {
        expect(parseTimestamp(text)).toBe(ms)
        expect(canonicalTimestamp(text)).toBe(viaDate(ms))
      }),
      { numRuns: 5_000 },
    )
  })

  test.each([
    ['2025-12-30T00:01:00Z', '2025-12-30T00:01:00Z'],
    ['2025-12-30T00:01:00+00:00', '2025-12-30T00:01:00Z'],
    ['2025-12-30T00:01:00.000000+00:00', '2025-12-30T00:01:00Z'],
    ['2025-12-30T00:01:00.000Z', '2025-12-30T00:01:00Z'],
    ['2025-12-30T00:01:00.000000000z', '2025-12-30T00:01:00Z'],
    ['2025-12-30T00:01:00+0000', '2025-12-30T00:01:00Z'],
    ['2025-12-30T00:01:00-00:00', '2025-12-30T00:01:00Z'],
    ['2025-12-30t00:01:00,5Z', '2025-12-30T00:01:00.500Z'],
    ['2025-12-30T00:01:00.123000Z', '2025-12-30T00:01:00.123Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59Z'],
  ])('%s reads as the instant written canonically %s', (text, canonical) => {
    expect(canonicalTimestamp(text)).toBe(canonical)
    expect(parseTimestamp(text)).toBe(Date.parse(canonical))
  })

  test('a non-zero offset reads as the instant it denotes, handed on in UTC', () => {
    expect(canonicalTimestamp('2025-12-30T01:01:00+01:00')).toBe('2025-12-30T00:01:00Z')
    expect(canonicalTimestamp('2025-12-29T19:01:00-0500')).toBe('2025-12-30T00:01:00Z')
    expect(canonicalTimestamp('2025-12-30T05:31:00+05:30')).toBe('2025-12-30T00:01:00Z')
    expect(canonicalTimestamp('2025-12-30T02:01:00+02')).toBe('2025-12-30T00:01:00Z')
    fc.assert(
      fc.property(wholeSecond, fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }), (ms, offset) => {
        fc.pre(ms + offset * 60_000 >= YEAR_0 && ms + offset * 60_000 <= YEAR_9999_END && ms >= YEAR_0 + DAY)
        const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19)
        const abs = Math.abs(offset)
        const text = `${local}${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
        expect(parseTimestamp(text)).toBe(ms)
        expect(parseTimestamp(text)).toBe(Date.parse(text))
      }),
      { numRuns: 2_000 },
    )
  })

  test.each([
    ['no zone: a local time names no instant', '2025-12-30T00:01:00'],
    ['a space for the T', '2025-12-30 00:01:00Z'],
    ['a bare date', '2025-12-30'],
    ['no seconds', '2025-12-30T00:01Z'],
    ['hour 24', '2025-12-30T24:00:00Z'],
    ['second 60', '2025-12-31T23:59:60Z'],
    ['a day the month lacks', '2023-02-29T00:00:00Z'],
    ['day 31 of April', '2024-04-31T00:00:00Z'],
    ['month 13', '2024-13-01T00:00:00Z'],
    ['an offset past 23:59', '2025-12-30T00:01:00+24:00'],
    ['offset minutes past 59', '2025-12-30T00:01:00+01:60'],
    ['a sub-millisecond digit other than zero (it would move the time)', '2025-12-30T00:01:00.0000001Z'],
    ['ten fractional digits', '2025-12-30T00:01:00.0000000000Z'],
    ['sub-millisecond digits past the third', '2025-12-30T00:01:00.123400Z'],
    ['an offset that moves year 9999 past its end', '9999-12-31T23:59:59-01:00'],
    ['an epoch number as text', '1767052860000'],
    ['empty', ''],
  ])('refused, NaN: %s (%s)', (_why, text) => {
    expect(parseTimestamp(text)).toBeNaN()
    expect(canonicalTimestamp(text)).toBeUndefined()
  })

  test('a close time with one character changed never reads as another instant than Date.parse reads (property)', () => {
    const canonical = wholeSecond.map(viaDate)
    const mutated = canonical.chain((ts) => fc.tuple(fc.nat(19), fc.constantFrom(...'0123456789:-TZ. x+/z'.split(''))).map(([at, ch]) => ts.slice(0, at) + ch + ts.slice(at + 1)))
    // Runs of texts of one day, some broken: the cache of the day must still check each.
    const run = fc.array(fc.oneof(canonical, mutated), { minLength: 1, maxLength: 20 })
    fc.assert(
      fc.property(run, (texts) => {
        for (const ts of texts) {
          const ms = parseTimestamp(ts)
          if (!Number.isNaN(ms)) expect(ms, ts).toBe(Date.parse(ts))
        }
      }),
      { numRuns: 2_000 },
    )
  })

  test('a series of minutes read in order, across hours, days and years, gives each instant', () => {
    const from = Date.UTC(2023, 11, 31, 22, 30)
    for (let t = from; t < from + 2 * DAY; t += 60_000) expect(parseTimestamp(viaDate(t))).toBe(t)
  })

  test('a text that shares the day of the close time before it is still checked', () => {
    expect(parseTimestamp('2024-01-01T10:05:00Z')).toBe(Date.UTC(2024, 0, 1, 10, 5))
    for (const bad of ['2024-01-01T10:60:00Z', '2024-01-01T10:05:60Z', '2024-01-01T10:0x:00Z', '2024-01-01T10:05-00Z', '2024-01-01T10:05:00X', '2024-01-01T10:5:00Z', '2024-01-01T24:00:00Z']) {
      expect(parseTimestamp(bad), bad).toBeNaN()
    }
  })
})

describe('the close-time module writes one canonical form', () => {
  test('YYYY-MM-DDTHH:MM:SSZ, with .sss only when the milliseconds are not zero: the Date path for any instant in years 0000..9999 (property)', () => {
    fc.assert(
      fc.property(anyInstant, (ms) => {
        expect(formatTimestamp(ms)).toBe(viaDate(ms))
      }),
      { numRuns: 20_000 },
    )
  })

  test('runs of nearby instants, whatever day was written before (property)', () => {
    const run = fc.tuple(anyInstant, fc.array(fc.integer({ min: -3 * DAY, max: 3 * DAY }), { minLength: 1, maxLength: 50 }))
    fc.assert(
      fc.property(run, ([base, offsets]) => {
        for (const offset of offsets) {
          const ms = Math.min(YEAR_9999_END, Math.max(YEAR_0, base + offset))
          expect(formatTimestamp(ms)).toBe(viaDate(ms))
        }
      }),
      { numRuns: 2_000 },
    )
  })

  test('every canonical text reads back as its instant, and every instant round-trips (property)', () => {
    fc.assert(
      fc.property(anyInstant, (ms) => {
        const text = formatTimestamp(ms)
        expect(CANONICAL_TIMESTAMP.test(text)).toBe(true)
        expect(isCanonicalTimestamp(text)).toBe(true)
        expect(parseTimestamp(text)).toBe(ms)
        expect(canonicalTimestamp(text)).toBe(text)
      }),
      { numRuns: 5_000 },
    )
  })

  test('canonical texts of whole seconds compare as their instants do (text order is time order)', () => {
    fc.assert(
      fc.property(wholeSecond, wholeSecond, (a, b) => {
        expect(formatTimestamp(a) < formatTimestamp(b)).toBe(a < b)
      }),
      { numRuns: 5_000 },
    )
  })

  test('the pattern of the canonical form refuses every other form of the same instant', () => {
    for (const other of ['2025-12-30T00:01:00.000Z', '2025-12-30T00:01:00+00:00', '2025-12-30T00:01:00z', '2025-12-30T00:01:00.5Z', '2023-02-29T00:00:00Z', '2025-12-30t00:01:00Z', '2025-12-30T00:01:00.123+00:00']) {
      expect(CANONICAL_TIMESTAMP.test(other), other).toBe(false)
      expect(isCanonicalTimestamp(other), other).toBe(false)
    }
  })

  test('the check by position says what the pattern says, for any text near the canonical form (property)', () => {
    const near = anyInstant.chain((ms) =>
      fc.tuple(fc.nat(23), fc.constantFrom(...'0123456789:-TZtz.+ '.split(''))).map(([at, ch]) => {
        const ts = formatTimestamp(ms)
        return at >= ts.length ? ts : ts.slice(0, at) + ch + ts.slice(at + 1)
      }),
    )
    fc.assert(
      fc.property(fc.array(near, { minLength: 1, maxLength: 10 }), (texts) => {
        for (const ts of texts) expect(isCanonicalTimestamp(ts), ts).toBe(CANONICAL_TIMESTAMP.test(ts))
      }),
      { numRuns: 3_000 },
    )
  })

  test.each([
    [0, '1970-01-01T00:00:00Z'],
    [-0, '1970-01-01T00:00:00Z'],
    [-1, '1969-12-31T23:59:59.999Z'],
    [-0.5, '1970-01-01T00:00:00Z'], // a fraction of a millisecond is dropped toward zero, as Date does
    [1.9, '1970-01-01T00:00:00.001Z'],
    [DAY - 1, '1970-01-01T23:59:59.999Z'],
    [Date.UTC(2024, 4, 1, 9, 1, 0, 120), '2024-05-01T09:01:00.120Z'],
    [YEAR_0, '0000-01-01T00:00:00Z'],
    [YEAR_9999_END, '9999-12-31T23:59:59.999Z'],
  ])('%d -> %s', (ms, text) => {
    expect(formatTimestamp(ms)).toBe(text)
  })

  test('outside years 0000..9999 it writes what Date writes; invalid instants throw a RangeError', () => {
    for (const ms of [YEAR_9999_END + 1, Date.parse('-000001-06-01T12:34:56Z'), 8.64e15, -8.64e15]) expect(formatTimestamp(ms)).toBe(viaDate(ms))
    for (const ms of [Number.NaN, Infinity, -Infinity, 8.64e15 + 1, -8.64e15 - 1]) expect(() => formatTimestamp(ms)).toThrow(RangeError)
  })
})
