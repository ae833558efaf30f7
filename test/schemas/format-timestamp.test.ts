import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatTimestamp } from '../../src/contract/index.js'

/** The reference: what formatTimestamp computed before it cached the date per UTC day. */
const viaDate = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`

const YEAR_1 = Date.parse('0001-01-01T00:00:00.000Z')
const YEAR_9999_END = Date.parse('9999-12-31T23:59:59.999Z')
const DAY = 86_400_000
const anyInstant = fc.integer({ min: YEAR_1, max: YEAR_9999_END })

describe('formatTimestamp', () => {
  test('equals the Date path for any instant in years 0001..9999 (property)', () => {
    fc.assert(
      fc.property(anyInstant, (ms) => {
        expect(formatTimestamp(ms)).toBe(viaDate(ms))
      }),
      { numRuns: 20_000 },
    )
  })

  test('equals the Date path for runs of nearby instants, whatever the cached day (property)', () => {
    // Walks inside one day, across midnights and back, as page walks in both directions do.
    const run = fc.tuple(anyInstant, fc.array(fc.integer({ min: -3 * DAY, max: 3 * DAY }), { minLength: 1, maxLength: 50 }))
    fc.assert(
      fc.property(run, ([base, offsets]) => {
        for (const offset of offsets) {
          const ms = Math.min(YEAR_9999_END, Math.max(YEAR_1, base + offset))
          expect(formatTimestamp(ms)).toBe(viaDate(ms))
        }
      }),
      { numRuns: 2_000 },
    )
  })

  test('equals the Date path for fractional milliseconds (truncated toward zero) (property)', () => {
    fc.assert(
      fc.property(anyInstant, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (ms, fraction) => {
        expect(formatTimestamp(ms + fraction)).toBe(viaDate(ms + fraction))
        expect(formatTimestamp(ms - fraction)).toBe(viaDate(ms - fraction))
      }),
      { numRuns: 5_000 },
    )
  })

  test.each([
    [0, '1970-01-01T00:00:00Z'],
    [-0, '1970-01-01T00:00:00Z'],
    [-1, '1969-12-31T23:59:59Z'],
    [-0.5, '1970-01-01T00:00:00Z'], // Date truncates toward zero, not down
    [-1000, '1969-12-31T23:59:59Z'],
    [-1001, '1969-12-31T23:59:58Z'],
    [DAY - 1, '1970-01-01T23:59:59Z'],
    [Date.UTC(2024, 1, 29, 23, 59, 59, 999), '2024-02-29T23:59:59Z'],
    [Date.UTC(2024, 4, 1, 9, 1, 0, 999), '2024-05-01T09:01:00Z'],
    [YEAR_1, '0001-01-01T00:00:00Z'],
    [YEAR_1 - 1, '0000-12-31T23:59:59Z'],
    [YEAR_9999_END, '9999-12-31T23:59:59Z'],
  ])('%d -> %s', (ms, text) => {
    expect(formatTimestamp(ms)).toBe(text)
    expect(formatTimestamp(ms)).toBe(viaDate(ms))
  })

  test('outside years 0000..9999 it answers exactly like the Date path', () => {
    for (const ms of [YEAR_9999_END + 1, Date.parse('-000001-06-01T12:34:56Z'), 8.64e15, -8.64e15]) {
      expect(formatTimestamp(ms)).toBe(viaDate(ms))
    }
  })

  test('invalid instants throw a RangeError like the Date path', () => {
    for (const ms of [Number.NaN, Infinity, -Infinity, 8.64e15 + 1, -8.64e15 - 1]) {
      expect(() => viaDate(ms)).toThrow(RangeError)
      expect(() => formatTimestamp(ms)).toThrow(RangeError)
    }
  })
})
