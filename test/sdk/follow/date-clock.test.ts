import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { roundSpeed } from '../../../src/follow/clock-speed.js'
import { DateClock } from '../../../src/follow/date-clock.js'

/**
 * A service whose clock reads `offset + speed × local` (local: this simulation's wall clock, epoch
 * ms), answering after `rtt` ms, dated halfway: the Date header a follow would see, and a
 * DateClock that learns from it. No timers: the local clock is the simulation's.
 */
function simulate(options: { offset: number; speed: number; rtt: number; start?: number; given?: number }) {
  let local = options.start ?? Date.parse('2026-11-28T10:00:00.123Z')
  let { offset, speed } = options
  let requests = 0
  const truth = (at = local) => offset + speed * at
  const clock = new DateClock(options.given, () => local)
  const ask = () => {
    requests++
    const sent = local
    const dated = truth(sent + options.rtt / 2)
    local += options.rtt
    clock.observe(new Date(Math.floor(dated / 1000) * 1000).toUTCString(), sent, local)
  }
  /** Sends the probes the clock asks for, until it wants none or `until` (local ms) has come. */
  const probe = (until: number) => {
    for (let n = 0; n < 100; n++) {
      const at = clock.probeAt()
      if (at === undefined || at > until) break
      local = Math.max(local, at)
      clock.probing()
      ask()
    }
    local = Math.max(local, until)
  }
  return {
    clock,
    truth,
    ask,
    probe,
    get local() {
      return local
    },
    set local(at: number) {
      local = at
    },
    get requests() {
      return requests
    },
    move(ms: number) {
      offset += ms
    },
    setSpeed(next: number) {
      // The clock runs on from where it is at the new speed.
      offset = truth() - next * local
      speed = next
    },
  }
}

/** The clock assumes `speed` and reads the service's clock within `withinMs` of the truth. */
function expectReading(sim: ReturnType<typeof simulate>, speed: number, withinMs = 1000): void {
  expect(sim.clock.speed).toBe(speed)
  expect(Math.abs(sim.clock.now() - sim.truth())).toBeLessThan(withinMs)
}

describe("the service's clock from its Date headers (whole seconds): the reading, the speed, a few probes", () => {
  test('at wall speed, the first answer and a few probes put the reading within 60 ms plus a round trip, in under 10 s and 12 requests', () => {
    const sim = simulate({ offset: 123_456, speed: 1, rtt: 4 })
    sim.ask()
    // Date alone: anywhere in a second.
    expect(sim.clock.spread()).toBeGreaterThan(900)
    const firstOffset = sim.clock.now() - sim.local
    const start = sim.local
    sim.probe(start + 10_000)
    // What the probes corrected is told, so offsets measured on the first reading can move with it.
    expect(sim.clock.shift).toBeCloseTo(sim.clock.now() - sim.local - firstOffset, 6)
    expect(sim.clock.spread()).toBeLessThanOrEqual(60 + 4)
    expect(Math.abs(sim.clock.now() - sim.truth())).toBeLessThanOrEqual(30 + 4)
    expect(sim.clock.speed).toBe(1)
    expect(sim.requests).toBeLessThanOrEqual(12)
    // Then one check of the speed at 30 s, and no probe after it.
    sim.probe(start + 60_000)
    expect(sim.clock.probeAt()).toBeUndefined()
    expect(sim.requests).toBeLessThanOrEqual(13)
  })

  test('property: whatever the offset, the round trip (0-80 ms) and the speed (1, 2, 60, 120, 600), once the speed is learnt the bounds hold the true reading', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 80 }), fc.constantFrom(1, 2, 60, 120, 600), fc.integer({ min: 0, max: 999 }), (offset, rtt, speed, phase) => {
        const sim = simulate({ offset, speed, rtt, start: Date.parse('2026-11-28T10:00:00Z') + phase })
        sim.ask()
        for (let i = 0; i < 40; i++) {
          sim.probe(sim.local + 500)
          const [low, high] = sim.clock.bounds()
          if (sim.clock.speed === speed) {
            expect(sim.truth()).toBeGreaterThanOrEqual(low - 2 * speed)
            expect(sim.truth()).toBeLessThanOrEqual(high + 2 * speed)
          }
          // A poll every half second too, as a follow at the edge of a fast clock makes.
          sim.ask()
        }
        expect(sim.clock.speed).toBe(speed)
        // Within the spread a probe can reach: 60 ms, or a few round trips at that speed, plus a second's slack at most.
        expect(Math.abs(sim.clock.now() - sim.truth())).toBeLessThanOrEqual(Math.max(60, 4 * speed * rtt) + speed * rtt + 1)
      }),
      { numRuns: 200 },
    )
  })

  test('a clock at 60x is learnt from the probe 300 ms after the first answer: within a second a follow reads it to a second', () => {
    const sim = simulate({ offset: -5e12, speed: 60, rtt: 2 })
    sim.ask()
    const start = sim.local
    sim.probe(start + 1000)
    expectReading(sim, 60)
  })

  test('a speed change (POST /_mock/clock {"rate": 600}) is picked up at the next answer and its probe; a move starts the estimate again', () => {
    const sim = simulate({ offset: -5e12, speed: 60, rtt: 2 })
    sim.ask()
    sim.probe(sim.local + 3000)
    expect(sim.clock.speed).toBe(60)
    sim.setSpeed(600)
    sim.local += 1000
    sim.ask()
    sim.probe(sim.local + 1000)
    expectReading(sim, 600, 5_000)
    sim.setSpeed(1)
    sim.local += 1000
    sim.ask()
    sim.probe(sim.local + 10_000)
    expectReading(sim, 1, 100)
    const restarts = sim.clock.restarts
    sim.move(3_600_000)
    sim.ask()
    expect(sim.clock.restarts).toBe(restarts + 1)
    sim.probe(sim.local + 10_000)
    expect(Math.abs(sim.clock.now() - sim.truth())).toBeLessThan(100)
  })

  test('an answer sent before the clock was moved and delivered after answers that showed the move (a slow body) changes nothing: its Date is from before the move', () => {
    const sim = simulate({ offset: -5e12, speed: 60, rtt: 2 })
    sim.ask()
    sim.probe(sim.local + 3000)
    expect(sim.clock.speed).toBe(60)
    // Dated as it leaves; its body comes 1.4 s later.
    const sent = sim.local
    const dated = Math.floor(sim.truth(sent + 5) / 1000) * 1000
    sim.local += 700
    sim.move(120_000)
    sim.ask()
    const restarts = sim.clock.restarts
    sim.local = sent + 1400
    sim.clock.observe(new Date(dated).toUTCString(), sent, sim.local)
    expect(sim.clock.restarts).toBe(restarts)
    expectReading(sim, 60)
    sim.ask()
    expectReading(sim, 60)
  })

  test('a clock moved twice within a second (the service started again, then its clock advanced): two moves, not a new speed; the reading follows at 60x', () => {
    const sim = simulate({ offset: -5e12, speed: 60, rtt: 2 })
    sim.ask()
    sim.probe(sim.local + 3000)
    sim.local += 1000
    sim.move(2_000)
    sim.ask()
    sim.local += 300
    sim.move(180_000)
    // Two answers 300 ms apart, three minutes apart on the clock: they fit a speed of about 660 too.
    sim.ask()
    expectReading(sim, 60)
    sim.probe(sim.local + 2000)
    expectReading(sim, 60)
  })

  test('with its speed given (clockRate 120), a clock moved 108 minutes half a second after the first answer, before any probe: a move, not a speed of thousands; the reading follows at 120x', () => {
    const sim = simulate({ offset: -5e12, speed: 120, rtt: 2, given: 120 })
    sim.ask()
    sim.local += 500
    sim.move(108 * 60_000)
    sim.ask()
    expect(sim.clock.restarts).toBe(1)
    expectReading(sim, 120)
    sim.probe(sim.local + 3000)
    expectReading(sim, 120)
  })

  test('a speed given that is wrong (clockRate 60, the clock at wall speed) is corrected within a second of answers', () => {
    const sim = simulate({ offset: 0, speed: 1, rtt: 2, given: 60 })
    sim.ask()
    sim.probe(sim.local + 1500)
    expectReading(sim, 1)
  })

  test('a stopped clock is seen as one (speed 0), probed every second, and its start seen at the next probe', () => {
    const sim = simulate({ offset: 0, speed: 1, rtt: 2 })
    sim.setSpeed(0)
    sim.ask()
    sim.probe(sim.local + 5_000)
    expect(sim.clock.speed).toBe(0)
    const next = sim.clock.probeAt()!
    expect(next - sim.local).toBeLessThanOrEqual(1000)
    sim.setSpeed(60)
    sim.probe(sim.local + 2_000)
    expect(sim.clock.speed).toBe(60)
  })

  test('before any answer it reads the local clock, and wants no probe', () => {
    const clock = new DateClock(60, () => 1_000)
    expect(clock.now()).toBe(1_000)
    expect(clock.probeAt()).toBeUndefined()
    clock.observe(null, 0, 1)
    clock.observe('not a date', 0, 1)
    expect(clock.probeAt()).toBeUndefined()
  })
})

describe('roundSpeed: the roundest speed the Date headers allow', () => {
  test.each([
    [0.5, 1.5, 1],
    [55, 65, 60],
    [110, 130, 120],
    [590, 612, 600],
    [0, 0.3, 0],
    [1.6, 2.5, 2],
    [1.99, 2.05, 2], // a round speed off the range's middle: still the roundest it holds
  ])('[%d, %d] -> %d', (low, high, speed) => {
    expect(roundSpeed(low, high)).toBe(speed)
  })

  test('property: always inside the range it is given', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e5, noNaN: true }), fc.double({ min: 0, max: 1e5, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a]
        const speed = roundSpeed(low, high)
        expect(speed).toBeGreaterThanOrEqual(low)
        expect(speed).toBeLessThanOrEqual(high)
      }),
    )
  })
})
