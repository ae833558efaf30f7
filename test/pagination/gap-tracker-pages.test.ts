import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { markCloseTimesChecked } from '../../src/internal/checked-close-times.js'
import { GapTracker } from '../../src/pagination/gap-tracker.js'

const STEPS = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 } as const
const T0 = Date.UTC(2024, 1, 27) // around a leap day
const canonical = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')
/**
 * Close times around a grid: mostly on it and consecutive, with gaps, repeats, times off the grid,
 * steps back and another spelling (milliseconds), all of them texts the datetime check passes.
 */
const closeTimes = (step: number) =>
  fc.array(
    fc.oneof(
      { arbitrary: fc.constant({ kind: 'next' as const }), weight: 20 },
      { arbitrary: fc.integer({ min: 2, max: 5 }).map((k) => ({ kind: 'skip' as const, k })), weight: 2 },
      { arbitrary: fc.constant({ kind: 'repeat' as const }), weight: 1 },
      { arbitrary: fc.integer({ min: 1, max: 59 }).map((s) => ({ kind: 'off' as const, s })), weight: 1 },
      { arbitrary: fc.constant({ kind: 'back' as const }), weight: 1 },
      { arbitrary: fc.constant({ kind: 'fraction' as const }), weight: 1 },
    ),
    { maxLength: 60 },
  ).map((moves) => {
    let t = T0 - 3 * step
    const out: string[] = []
    for (const m of moves) {
      if (m.kind === 'next') t += step
      else if (m.kind === 'skip') t += m.k * step
      else if (m.kind === 'back') t -= step
      if (m.kind === 'off') out.push(canonical(t + m.s * 1000))
      else if (m.kind === 'fraction') out.push(new Date(t + step).toISOString())
      else out.push(canonical(t))
    }
    return out
  })

describe('gap tracking, a page at a time', () => {
  test.each(Object.entries(STEPS))('a checked page counts its candles and gaps exactly as candle by candle (%s)', (interval, step) => {
    fc.assert(
      fc.property(
        closeTimes(step),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.boolean(),
        (times, cuts, withEnd, checked) => {
          const end = withEnd ? T0 + 30 * step : undefined
          const one = new GapTracker(interval, step, T0, end)
          const paged = new GapTracker(interval, step, T0, end)
          let at = 0
          for (let c = 0; at < times.length; c = (c + 1) % cuts.length) {
            const page = times.slice(at, at + cuts[c]!).map((close_ts) => ({ close_ts }))
            at += cuts[c]!
            if (checked) markCloseTimesChecked(page)
            for (const candle of page) one.observe(candle.close_ts)
            paged.observeAll(page)
            expect(paged.report(false)).toEqual(one.report(false))
          }
          expect(paged.report(true)).toEqual(one.report(true))
        },
      ),
      { numRuns: 400 },
    )
  })

  // Pages that start where the series goes on and end where a page without gaps would: only the
  // checks of each close time (on the grid, after the one before) tell them from one without gaps.
  test.each(Object.entries(STEPS))('a checked page whose ends look whole but whose middle is not counts as candle by candle (%s)', (interval, step) => {
    const perturb = fc.record({
      n: fc.integer({ min: 3, max: 40 }),
      at: fc.nat(),
      kind: fc.constantFrom('repeat', 'swap', 'off-grid', 'milliseconds', 'fraction', 'none'),
      offset: fc.integer({ min: 1, max: 59 }),
    })
    fc.assert(
      fc.property(fc.array(perturb, { minLength: 1, maxLength: 8 }), (pages) => {
        const one = new GapTracker(interval, step, T0, undefined)
        const paged = new GapTracker(interval, step, T0, undefined)
        let next = T0
        for (const { n, at, kind, offset } of pages) {
          const times = Array.from({ length: n }, (_, i) => canonical(next + i * step))
          const i = 1 + (at % (n - 2)) // a middle candle
          if (kind === 'repeat') times[i] = times[i - 1]!
          if (kind === 'swap') [times[i], times[i + 1 === n - 1 ? i - 1 : i + 1]] = [times[i + 1 === n - 1 ? i - 1 : i + 1]!, times[i]!]
          if (kind === 'off-grid') times[i] = canonical(next + i * step + offset * (step === 60_000 ? 1000 : 60_000))
          if (kind === 'milliseconds') times[i] = new Date(next + i * step).toISOString()
          // Off the grid by half a second, its seconds still `00`.
          if (kind === 'fraction') times[i] = new Date(next + i * step + 500).toISOString()
          const page = times.map((close_ts) => ({ close_ts }))
          markCloseTimesChecked(page)
          for (const candle of page) one.observe(candle.close_ts)
          paged.observeAll(page)
          expect(paged.report(false)).toEqual(one.report(false))
          next += n * step
        }
      }),
      { numRuns: 300 },
    )
  })

  test('a page without gaps is counted whole, and a page with one is counted candle by candle', () => {
    const step = STEPS['1m']
    const tracker = new GapTracker('1m', step, T0, undefined)
    const full = Array.from({ length: 1000 }, (_, i) => ({ close_ts: canonical(T0 + i * step) }))
    markCloseTimesChecked(full)
    tracker.observeAll(full)
    const holed = Array.from({ length: 1000 }, (_, i) => ({ close_ts: canonical(T0 + (1000 + i + (i >= 500 ? 3 : 0)) * step) }))
    markCloseTimesChecked(holed)
    tracker.observeAll(holed)
    const report = tracker.report(false)
    expect(report.received).toBe(2000)
    expect(report.gaps).toEqual([{ from: canonical(T0 + 1500 * step), to: canonical(T0 + 1502 * step), missing: 3 }])
    expect(report.to).toBe(canonical(T0 + 2002 * step))
  })
})
