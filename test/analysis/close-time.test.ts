import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { closeTimeMs } from '../../src/analysis/close-time.js'

const same = (a: number, b: number) => (Number.isNaN(a) && Number.isNaN(b)) || a === b

// Close times as the service writes them, and the same texts with one character changed: every
// character position, digits out of range, other separators, so each fast path meets its misses.
const canonical = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }).map((t) => new Date(t - (t % 1000)).toISOString().replace('.000Z', 'Z'))
const mutation = (ts: string) => fc.tuple(fc.nat(19), fc.constantFrom(...'0123456789:-TZ. x+/'.split(''))).map(([at, ch]) => ts.slice(0, at) + ch + ts.slice(at + 1))
const mutated = canonical.chain(mutation)
// A close time, then others of its hour, some broken: the texts a cache of the hour must still check.
const sameHour = canonical.chain((ts) => fc.array(fc.oneof(fc.constant(ts), mutation(ts)), { maxLength: 6 }).map((rest) => [ts, ...rest]))
const closeTimes = fc.array(fc.oneof({ arbitrary: canonical.map((t) => [t]), weight: 3 }, { arbitrary: mutated.map((t) => [t]), weight: 2 }, { arbitrary: sameHour, weight: 3 }, { arbitrary: fc.string({ maxLength: 24 }).map((t) => [t]), weight: 1 }), { minLength: 1, maxLength: 20 }).map((xs) => xs.flat())

describe('closeTimeMs', () => {
  test('a close time reads as Date.parse reads it, whatever was read before it', () => {
    fc.assert(
      fc.property(closeTimes, (texts) => {
        for (const ts of texts) if (!same(closeTimeMs(ts), Date.parse(ts))) throw new Error(`${ts}: ${closeTimeMs(ts)}, Date.parse ${Date.parse(ts)}`)
      }),
      { numRuns: 2000 },
    )
  })

  test('a series of minutes read in order, across hours, days and years, gives each instant', () => {
    const from = Date.UTC(2023, 11, 31, 22, 30)
    for (let t = from; t < from + 2 * 86_400_000; t += 60_000) {
      const ts = new Date(t).toISOString().replace('.000Z', 'Z')
      expect(closeTimeMs(ts)).toBe(t)
    }
  })

  test('text that shares the hour of the close time before it is still checked', () => {
    expect(closeTimeMs('2024-01-01T10:05:00Z')).toBe(Date.UTC(2024, 0, 1, 10, 5))
    expect(closeTimeMs('2024-01-01T24:00:00Z')).toBe(Date.parse('2024-01-01T24:00:00Z'))
    expect(closeTimeMs('2024-01-01T24:30:00Z')).toBeNaN()
    expect(closeTimeMs('2024-01-01T10:05:00Z')).toBe(Date.UTC(2024, 0, 1, 10, 5))
    for (const bad of ['2024-01-01T10:60:00Z', '2024-01-01T10:05:60Z', '2024-01-01T10:0x:00Z', '2024-01-01T10:05-00Z', '2024-01-01T10:05:00X', '2024-01-01T10:5:00Z']) {
      expect(closeTimeMs(bad), bad).toBeNaN()
    }
  })
})
