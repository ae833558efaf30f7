import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { describeDuration, formatTimestamp, parseDateTime, parseDuration } from '../../src/contract/index.js'

describe('start / end accept ISO 8601', () => {
  test.each([
    ['2024-05-01T09:01:00Z', Date.UTC(2024, 4, 1, 9, 1)],
    ['2024-05-01T09:01:00z', Date.UTC(2024, 4, 1, 9, 1)],
    ['2024-05-01T11:01:00+02:00', Date.UTC(2024, 4, 1, 9, 1)],
    ['2024-05-01T08:31:00-0030', Date.UTC(2024, 4, 1, 9, 1)],
    ['2024-05-01T09:01:00.250Z', Date.UTC(2024, 4, 1, 9, 1) + 250],
    ['2024-05-01', Date.UTC(2024, 4, 1)], // a bare date is midnight UTC
    ['2024-05-01T09:01:00', Date.UTC(2024, 4, 1, 9, 1)], // no zone is read as UTC
    ['2024-05-01T09:01', Date.UTC(2024, 4, 1, 9, 1)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
  ])('%s', (text, ms) => {
    expect(parseDateTime(text)).toEqual({ ok: true, ms })
  })

  test('sub-millisecond digits are kept as a fraction', () => {
    expect(parseDateTime('2024-05-01T00:00:00.0005Z')).toEqual({ ok: true, ms: Date.UTC(2024, 4, 1) + 0.5 })
  })

  test.each(['', 'now', '2024-5-1', '2024-05-01T', '2023-02-29', '2024-04-31', '2024-05-01T24:00:00Z', '2024-05-01T09:60:00Z', '2024-05-01T09:01:60Z', '2024-05-01T09:01:00+24:00', '2024-05-01T09:01:00 UTC', '20240501', '1714550400000', ' 2024-05-01', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-01:00'])(
    'anything else is refused: %j',
    (text) => {
      expect(parseDateTime(text).ok).toBe(false)
    },
  )

  test('every instant formatted as the service writes it parses back to itself (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31) }), (ms) => {
        const whole = Math.floor(ms / 1000) * 1000
        expect(parseDateTime(formatTimestamp(whole))).toEqual({ ok: true, ms: whole })
        expect(parseDateTime(new Date(ms).toISOString())).toEqual({ ok: true, ms })
      }),
      { numRuns: 2000 },
    )
  })

  test('output format is YYYY-MM-DDTHH:MM:SSZ, with milliseconds only when they are not zero', () => {
    expect(formatTimestamp(Date.UTC(2024, 4, 1, 9, 1, 0))).toBe('2024-05-01T09:01:00Z')
    expect(formatTimestamp(Date.UTC(2024, 4, 1, 9, 1, 0, 999))).toBe('2024-05-01T09:01:00.999Z')
  })
})

describe('plan history depths are ISO 8601 durations of fixed length', () => {
  test.each([
    ['P30D', 30 * 86_400_000, '30 days'],
    ['P2W', 14 * 86_400_000, '14 days'],
    ['PT6H', 6 * 3_600_000, '6 hours'],
    ['P1DT1H', 25 * 3_600_000, '25 hours'],
    ['PT90S', 90_000, '90 seconds'],
  ])('%s', (text, ms, words) => {
    expect(parseDuration(text)).toBe(ms)
    expect(describeDuration(ms)).toBe(words)
  })

  test.each(['P', 'PT', 'P1M', 'P1Y', '30d', 'P-1D', 'P1.5D'])('refused: %s (calendar-dependent or not a duration)', (text) => {
    expect(parseDuration(text)).toBeUndefined()
  })
})
