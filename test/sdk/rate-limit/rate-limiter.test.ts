import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { RateLimiter } from '../../../src/index.js'
import { ROUND_TRIP_AGE_MS } from '../../../src/rate-limit/aging-minimum.js'
import { TURN, TrialTurns } from '../../../src/rate-limit/trial-turns.js'
import { sdkViaHttp } from '../../support/sdk-targets.js'

describe('the client-side rate limiter mirrors the service sliding window (rate limit)', () => {
  /**
   * Simulates requests one after another on a fake clock: each leaves when the limiter lets it,
   * reaches the service after an outbound delay, and comes back after the service's time and the
   * return trip. Returns when the service saw each request arrive.
   */
  async function simulate(perSecond: number, trips: Array<{ idle: number; out: number; server: number; back: number }>) {
    let now = 0
    const limiter = new RateLimiter({ perSecond, marginMs: 25, now: () => now })
    const arrivals: number[] = []
    for (const trip of trips) {
      now += trip.idle
      // stand-in for sleeping: jump the clock by whatever the limiter asks
      for (let wait = limiter.delay(); wait > 0; wait = limiter.delay()) {
        // every earlier request has come back, so nothing can be in flight: never wait forever
        if (wait === Infinity) throw new Error('limiter waits for a request that already came back')
        now += wait
      }
      const release = await limiter.acquire()
      arrivals.push(now + trip.out)
      now += trip.out + trip.server + trip.back
      release()
    }
    return arrivals
  }

  test('the service never sees perSecond + 1 arrivals within one second, whatever the delays (property)', async () => {
    const trip = fc.record({ idle: fc.integer({ min: 0, max: 300 }), out: fc.integer({ min: 0, max: 120 }), server: fc.integer({ min: 0, max: 400 }), back: fc.integer({ min: 0, max: 50 }) })
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 40 }), fc.array(trip, { minLength: 1, maxLength: 60 }), async (perSecond, baseOut, trips) => {
        // the estimate relies on outbound trips no faster than the fastest seen: give them a common floor
        const arrivals = await simulate(perSecond, trips.map((t) => ({ ...t, out: baseOut + (t.out % 20) })))
        for (let i = perSecond; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - perSecond]!).toBeGreaterThanOrEqual(1000)
      }),
      { numRuns: 300 },
    )
  })

  test('a slow server does not slow the limiter: with 250 ms answers it still sends 10 per 1.025 s', async () => {
    const trips = Array.from({ length: 41 }, () => ({ idle: 0, out: 1, server: 250, back: 1 }))
    // sequential requests cannot reach the rate; run 10 at a time, as a concurrent walk does
    let now = 0
    const limiter = new RateLimiter({ marginMs: 25, now: () => now })
    const sent: number[] = []
    const inFlight: Array<{ done: number; release: () => void }> = []
    for (const trip of trips) {
      for (;;) {
        inFlight.sort((a, b) => a.done - b.done)
        while (inFlight.length > 0 && inFlight[0]!.done <= now) inFlight.shift()!.release()
        const wait = limiter.delay()
        if (wait === 0) break
        now = Math.min(wait === Infinity ? Infinity : now + wait, inFlight[0]?.done ?? Infinity)
      }
      const release = await limiter.acquire()
      sent.push(now)
      inFlight.push({ done: now + trip.out + trip.server + trip.back, release })
    }
    // the first window is cold (counted from completion); afterwards the pace is the full rate
    const steady = (sent[40]! - sent[20]!) / 20
    expect(steady).toBeLessThanOrEqual(102.5 + 1)
    expect(steady).toBeGreaterThanOrEqual(102.5 - 1)
  })

  test('the margin follows the network: twice the spread of round trips (median less fastest), from 5 to 100 ms; a given marginMs stays', async () => {
    const run = async (roundTrip: (i: number) => number, options: { marginMs?: number } = {}) => {
      let now = 0
      const limiter = new RateLimiter({ perSecond: 1, ...options, now: () => now })
      expect(limiter.windowMs).toBe(1000 + (options.marginMs ?? 25))
      // 40 requests one after another, each answered after its round trip (the first window is cold)
      for (let i = 0; i < 40; i++) {
        now += limiter.delay()
        const release = await limiter.acquire()
        now += roundTrip(i)
        release({ status: 200, headers: { 'ratelimit-limit': '1', 'ratelimit-remaining': '0' } })
      }
      return limiter.windowMs - 1000
    }
    expect(await run(() => 100)).toBe(5) // a steady network: the smallest margin
    expect(await run((i) => 100 + (i % 4) * 10)).toBe(40) // median 120, fastest 100: twice 20
    expect(await run((i) => 100 + (i % 2) * 400)).toBe(100) // at most 100
    expect(await run((i) => 100 + (i % 4) * 10, { marginMs: 25 })).toBe(25)
  })

  test('a fresh limiter sends a quarter of a window, the last of it after a first answer; answers that show nobody else open the whole window', async () => {
    let now = 1000
    const limiter = new RateLimiter({ perSecond: 8, marginMs: 0, now: () => now })
    const probe = [await limiter.acquire()]
    expect(limiter.delay()).toBe(Infinity) // the probe's last request waits for a first answer
    now += 40
    probe[0]!({ status: 200, headers: { 'ratelimit-limit': '8', 'ratelimit-remaining': '7', 'ratelimit-reset': '1' } })
    expect(limiter.delay()).toBe(0)
    probe.push(await limiter.acquire())
    now += 40
    probe[1]!({ status: 200, headers: { 'ratelimit-limit': '8', 'ratelimit-remaining': '6', 'ratelimit-reset': '1' } })
    expect(limiter.share).toBe(8) // 8 - 6 = the two probe requests: nobody else
    for (let i = 0; i < 6; i++) {
      expect(limiter.delay()).toBe(0)
      await limiter.acquire()
    }
    expect(limiter.delay()).toBe(1000 - 40) // a full window; the oldest came back at 1040 (cold: from completion)
  })

  test('the probe makes room for others: with 5 of 8 used by others, the share is the probe plus half the room left', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 8, marginMs: 0, now: () => now })
    const first = await limiter.acquire()
    now += 30
    first({ status: 200, headers: { 'ratelimit-remaining': '4' } })
    const second = await limiter.acquire()
    now += 30
    second({ status: 200, headers: { 'ratelimit-remaining': '1' } })
    // others = 8 - 1 - 2 = 5; room = 8 - 5 - 2 = 1; share = 2 + ceil(1 / 2)
    expect(limiter.share).toBe(3)
  })

  /** A limiter of perSecond 8 whose probe found others on the account: share 3. */
  async function sharedLimiter() {
    const clock = { now: 0 }
    const limiter = new RateLimiter({ perSecond: 8, marginMs: 0, now: () => clock.now })
    const first = await limiter.acquire()
    clock.now += 30
    first({ status: 200, headers: { 'ratelimit-remaining': '4' } })
    expect(limiter.share).toBe(3)
    return { clock, limiter }
  }

  test('only a window in which the limiter used its whole share raises it: one answer showing room is not enough', async () => {
    const { clock, limiter } = await sharedLimiter()
    const roomy = { status: 200, headers: { 'ratelimit-remaining': '4' } }
    // a window with one request, alone in it: its answer shows room the others may be about to take
    for (let i = 0; i < 3; i++) {
      clock.now += 1100
      ;(await limiter.acquire())(roomy)
    }
    expect(limiter.share).toBe(3)
    // windows of three requests, all showing room 4: the share grows by half of it
    for (let w = 0; w < 2; w++) {
      for (let i = 0; i < 3; i++) {
        clock.now += limiter.delay()
        ;(await limiter.acquire())(roomy)
      }
    }
    expect(limiter.share).toBe(3 + 2)
  })

  test('a 429 lowers the share to what got through in the last window; RateLimit-Limit below perSecond caps it', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 10, marginMs: 0, now: () => now })
    const slots = []
    for (let i = 0; i < 2; i++) slots.push(await limiter.acquire())
    slots.forEach((release) => release())
    for (let i = 0; i < 8; i++) slots.push(await limiter.acquire())
    expect(limiter.share).toBe(10)
    now += 50
    for (let i = 2; i < 7; i++) slots[i]!({ status: 200, headers: { 'ratelimit-remaining': '0' } })
    for (let i = 7; i < 10; i++) slots[i]!({ status: 429, headers: { 'retry-after': '1', 'ratelimit-remaining': '0' } })
    expect(limiter.share).toBe(7) // 10 sent, 3 refused
    expect(limiter.delay()).toBeGreaterThan(0) // no blanket pause for a one-window Retry-After, but the window is full
    const next = new RateLimiter({ perSecond: 10, now: () => now })
    ;(await next.acquire())({ status: 200, headers: { 'ratelimit-limit': '4', 'ratelimit-remaining': '3' } })
    expect(next.share).toBeLessThanOrEqual(4)
  })

  test('after an idle spell the limiter probes again; the probe waiting for its first answer waits, it does not spin', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 8, marginMs: 0, now: () => now })
    for (let i = 0; i < 8; i++) (await limiter.acquire())()
    now += 5000 // idle: who else uses the account may have changed
    const first = await limiter.acquire() // a probe of 2: one now, one after a first answer
    let second = false
    const pending = limiter.acquire().then((release) => ((second = true), release))
    for (let i = 0; i < 50; i++) await Promise.resolve()
    expect(second).toBe(false)
    expect(limiter.delay()).toBe(Infinity)
    first({ status: 200, headers: { 'ratelimit-remaining': '7' } })
    await pending
    expect(second).toBe(true)
  })

  test('a limiter alone keeps the whole window; one holding more of a full window than all others together gives one request back', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 10, marginMs: 0, now: () => now })
    const answer = (remaining: number) => ({ status: 200, headers: { 'ratelimit-limit': '10', 'ratelimit-remaining': String(remaining) } })
    // One window: as many requests as the share, each sent as soon as the limiter lets it, all answered.
    const window = async (answers: Array<{ status: number; headers: Record<string, string> }>) => {
      const slots = []
      for (let i = 0; i < answers.length; i++) {
        now += limiter.delay()
        slots.push(await limiter.acquire())
      }
      now += 50
      slots.forEach((release, i) => release(answers[i]))
    }
    ;(await limiter.acquire())(answer(9)) // the probe: nobody else
    expect(limiter.share).toBe(10)
    for (let i = 0; i < 4; i++) await window(Array.from({ length: 10 }, () => answer(0))) // full, and all of it ours: nothing to give back
    expect(limiter.share).toBe(10)
    // others start: a 429 cuts the share to what got through, then full windows with others in them
    await window([...Array.from({ length: 8 }, () => answer(0)), ...Array.from({ length: 2 }, () => ({ status: 429, headers: { 'retry-after': '1' } }))])
    expect(limiter.share).toBe(8)
    for (let i = 0; i < 2; i++) await window(Array.from({ length: 8 }, () => answer(0)))
    expect(limiter.share).toBe(7) // 8 of a full window against 2 of all others: one back
  })

  test('the smallest round trip ages: a path that got slower is timed with its own round trips within 2 × ROUND_TRIP_AGE_MS', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 2, marginMs: 0, now: () => now })
    const answer = { status: 200, headers: { 'ratelimit-limit': '2', 'ratelimit-remaining': '1' } }
    const sent: number[] = []
    // One request after another, each answered after `roundTrip` ms.
    const request = async (roundTrip: number) => {
      now += limiter.delay()
      const release = await limiter.acquire()
      sent.push(now)
      now += roundTrip
      release(answer)
    }
    for (let i = 0; i < 6; i++) await request(5) // past the cold window, on a 5 ms path
    const switched = sent.length
    const until = now + 2 * ROUND_TRIP_AGE_MS
    while (now < until) await request(150) // the path is now 150 ms
    await request(150)
    await request(150)
    // Request i + 2 reuses the slot of request i: held until its answer less the smallest round trip, plus the window.
    const pace = (i: number) => sent[i + 2]! - sent[i]!
    expect(pace(switched)).toBe(1000 + 150 - 5) // the old path's 5 ms still counts: its arrival is taken as late as it could be
    expect(pace(sent.length - 3)).toBe(1000) // aged: the window again
  })

  describe('without RateLimit-* headers (a 429 with Retry-After only, or with nothing: D13), the limiter learns from 429s alone', () => {
    const ok = { status: 200, headers: {} }
    /** The step between trials at the tests' round trips of 10 ms (see TrialTurns). */
    const step = Math.max(TURN.minStepMs, TURN.stepRoundTrips * 10)
    /** When a trial may leave in a turn: one window after its start, in order of share, then of what the limiter held before it. */
    const trialAt = (turn: number, share: number, held: number) => turn * TURN.ms + 1000 + TURN.after + step * (2 * (share - 1) + (held > share ? 1 : 0))
    /** A limiter of perSecond 4 (a probe of 1) whose probe was answered 200 without headers at t = 10: share 1. */
    async function headerless() {
      const clock = { now: 0 }
      const limiter = new RateLimiter({ perSecond: 4, marginMs: 0, now: () => clock.now, random: () => 0.5 })
      const probe = await limiter.acquire()
      clock.now = 10
      probe(ok)
      expect(limiter.share).toBe(1) // nothing says nobody else uses the account: the probe's share
      return { clock, limiter }
    }

    test('a trial, one request beyond the share, answered 200 grows the share by one; the next trial follows at once until one is refused', async () => {
      const { clock, limiter } = await headerless()
      for (let share = 1; share < 4; share++) {
        expect(limiter.delay()).toBe(0) // the share's slots are held (the probe's until 1010): only a trial may leave
        const trial = await limiter.acquire()
        clock.now += 10
        trial(ok)
        expect(limiter.share).toBe(share + 1)
      }
      expect(limiter.delay()).toBe(1010 - clock.now) // the whole window: nothing beyond it
    })

    test('the first trial leaves as the probe ends, not a window later: a caller asleep until a slot of the probe frees is woken', async () => {
      const clock = { now: 0 }
      const limiter = new RateLimiter({ perSecond: 8, marginMs: 0, now: () => clock.now })
      const first = await limiter.acquire() // a probe of 2: one now, one after a first answer
      const second = limiter.acquire()
      let third = false
      const pending = limiter.acquire().then((release) => ((third = true), release))
      clock.now = 10
      first(ok)
      const secondRelease = await second
      // The third caller now sleeps (real time) until the probe's first slot frees, at 1010.
      await new Promise((r) => setTimeout(r, 20))
      expect(third).toBe(false)
      clock.now = 20
      secondRelease(ok) // the probe ends: share 2, and a trial beyond it may leave at once
      const woke = await Promise.race([pending.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 300))])
      expect(woke).toBe(true)
      expect(limiter.share).toBe(2)
    })

    test('a trial answered 429 leaves the share as it was; the next waits for the next turn, at a multiple of 8 s of the wall clock', async () => {
      const { clock, limiter } = await headerless()
      const trial = await limiter.acquire()
      clock.now = 20
      trial({ status: 429, headers: { 'retry-after': '1' } })
      expect(limiter.share).toBe(1)
      expect(limiter.delay()).toBe(1010 - 20) // the share's slot frees at 1010
      clock.now = 1010
      await limiter.acquire() // a request within the share, still in flight: only a trial could leave now
      clock.now = TURN.ms - 1
      expect(limiter.delay()).toBe(Infinity) // no trial before the turn
      clock.now = TURN.ms
      // A share of 1 gives nothing back; its trial leaves one window after the turn's start (the
      // others' places are free then), first of all as its share is the smallest.
      expect(limiter.delay()).toBe(1000 + TURN.after)
    })

    test('at a turn a limiter gives one request back and wins it back by a trial one window later, its order set by its share and by what it held; then at most one beyond what it held', async () => {
      // Starts 3 s before a turn (the wall clock is the injected one), perSecond 4, round trips of 10 ms.
      const clock = { now: TURN.ms - 3000 }
      const limiter = new RateLimiter({ perSecond: 4, marginMs: 0, now: () => clock.now, random: () => 0.5 })
      const send = async (status = 200) => {
        expect(limiter.delay()).toBe(0)
        const release = await limiter.acquire()
        clock.now += 10
        release({ status, headers: {} })
      }
      await send() // the probe: share 1
      await send() // trials pass at once while no 429 came: share 2
      await send() // share 3
      await send(429) // the window is full; holding 3 of its 4, more than all others, it gives one back
      expect(limiter.share).toBe(2)
      // The share's second-newest slot frees at 6020 (cold: held from its answer); no trial before the turn.
      expect(limiter.delay()).toBe(TURN.ms - 3000 + 1020 - clock.now)
      clock.now = TURN.ms - 1000
      await send() // within the share
      await send()
      expect(limiter.delay()).toBe(TURN.ms - 1000 + 1000 - clock.now) // its slots, no trial
      clock.now = TURN.ms + 10 // the turn began at TURN.ms: one request given back
      await send() // within the share of 1 (its newer slot freed at 8010)
      expect(limiter.share).toBe(1)
      // Share 1, held 2 before the turn: order 2 * (1 - 1) + 1. Its slot frees first, at 8010 + 1000.
      const trial = trialAt(1, 1, 2)
      expect(limiter.delay()).toBe(TURN.ms + 1010 - clock.now)
      clock.now = TURN.ms + 1010
      await send() // within the share again
      expect(limiter.delay()).toBe(trial - clock.now)
      clock.now = trial
      await send() // the trial passed: share 2, what it held
      expect(limiter.share).toBe(2)
      // One beyond what it held may be tried (a trial of its turn before was refused): order 2 * (2 - 1).
      clock.now = trialAt(1, 2, 2)
      await send()
      expect(limiter.share).toBe(3)
      // No further trial this turn: only the share's own slots free up (the oldest of the three, sent at 9010).
      expect(limiter.delay()).toBe(TURN.ms + 2010 - clock.now)
      clock.now = TURN.ms + 2010
      await send()
      expect(limiter.delay()).toBe(trial + 1000 - clock.now) // the trial's slot, and still no trial
      expect(limiter.share).toBe(3)
    })

    test('the places go round at the least cost: a limiter that won a place in the last turn gives one back and sends no trial; one that gave a place up gives nothing back and trials', () => {
      const wall = { now: 0 }
      const turns = new TrialTurns(() => wall.now)
      turns.yielded() // a 429 within the share: trials wait for turns from now on
      // Turn 1: holding 2 (the first turn: nothing to compare with), it gives one back at once and trials.
      wall.now = TURN.ms
      expect(turns.turn(2, 4, 10)).toBe(1)
      expect(turns.wait(1, 1000, 4, 10)).toBe(trialAt(1, 1, 2) - wall.now)
      wall.now = trialAt(1, 1, 2)
      turns.sent()
      turns.passed() // won back: 2
      wall.now = trialAt(1, 2, 2)
      expect(turns.wait(2, 1000, 4, 10)).toBe(0)
      turns.sent()
      turns.passed() // one beyond what it held: 3
      // Turn 2: it ended above what it held (2 -> 3): it gives one back, holding 3 at 2 * (3 - 2) steps, and sends no trial.
      wall.now = 2 * TURN.ms
      expect(turns.turn(3, 4, 10)).toBe(0)
      wall.now = 2 * TURN.ms + 2 * step
      expect(turns.turn(3, 4, 10)).toBe(1)
      expect(turns.wait(2, 1000, 4, 10)).toBe(Infinity)
      wall.now = 3 * TURN.ms - 1
      expect(turns.wait(2, 1000, 4, 10)).toBe(Infinity)
      // Turn 3: it ended below what it held (3 -> 2): it gives nothing back, and trials in its order.
      wall.now = 3 * TURN.ms
      expect(turns.turn(2, 4, 10)).toBe(0)
      expect(turns.wait(2, 1000, 4, 10)).toBe(trialAt(3, 2, 2) - wall.now)
      wall.now = 4 * TURN.ms - 1
      expect(turns.turn(2, 4, 10)).toBe(0) // not later in the turn either
      // Turn 4: it ended where it began (a refused trial): it gives one back and trials again.
      turns.sent()
      turns.refused()
      wall.now = 4 * TURN.ms
      expect(turns.turn(2, 4, 10)).toBe(1)
      expect(turns.wait(1, 1000, 4, 10)).toBe(trialAt(4, 1, 2) - wall.now)
    })

    test('after a refused trial a limiter trials at most one beyond what it holds, or back to what it held a turn earlier: cut by 429s within its share, it wins its places back in one turn', () => {
      const wall = { now: 0 }
      const turns = new TrialTurns(() => wall.now)
      turns.yielded() // a 429 within the share: trials wait for turns from now on
      // Turn 1: holding 3 of 10, it gives one back (2), its trial is refused, and two 429s within its share cut it to 1.
      wall.now = TURN.ms + 2 * step
      expect(turns.turn(3, 10, 10)).toBe(1)
      wall.now = trialAt(1, 2, 3)
      expect(turns.wait(2, 1000, 10, 10)).toBe(0)
      turns.sent()
      turns.refused()
      turns.yielded()
      turns.yielded()
      // Turn 2: it ended below what it held (3 -> 1): no give-back; trials back to 3, none beyond.
      wall.now = 2 * TURN.ms
      expect(turns.turn(1, 10, 10)).toBe(0)
      for (const share of [1, 2]) {
        wall.now = trialAt(2, share, 1)
        expect(turns.wait(share, 1000, 10, 10), `a trial from ${share}`).toBe(0)
        turns.sent()
        turns.passed()
      }
      expect(turns.wait(3, 1000, 10, 10)).toBe(Infinity)
    })

    test('a limiter that won back its second place keeps it: it gives nothing back and trials, instead of walking on one request a second', () => {
      const wall = { now: 0 }
      const turns = new TrialTurns(() => wall.now)
      turns.yielded()
      // Turn 1: holding 2, it gives one back and its trial is refused: 1.
      wall.now = TURN.ms
      expect(turns.turn(2, 10, 10)).toBe(1)
      turns.sent()
      turns.refused()
      // Turn 2: below what it held (2 -> 1): it trials back to 2.
      wall.now = 2 * TURN.ms
      expect(turns.turn(1, 10, 10)).toBe(0)
      wall.now = trialAt(2, 1, 1)
      expect(turns.wait(1, 1000, 10, 10)).toBe(0)
      turns.sent()
      turns.passed()
      // Turn 3: above what it held (1 -> 2), but at 2 it keeps its place, and trials in its order.
      wall.now = 3 * TURN.ms
      expect(turns.turn(2, 10, 10)).toBe(0)
      wall.now = 4 * TURN.ms - 1
      expect(turns.turn(2, 10, 10)).toBe(0)
      wall.now = 3 * TURN.ms
      expect(turns.wait(2, 1000, 10, 10)).toBe(trialAt(3, 2, 2) - wall.now)
    })

    test('a limiter holding more gives its request back later in the turn (one window before the trials of the share below it), so the place stays empty about one window', async () => {
      const clock = { now: TURN.ms - 3000 }
      const limiter = new RateLimiter({ perSecond: 10, marginMs: 0, now: () => clock.now, random: () => 0.5 })
      const send = async (status = 200) => {
        const release = await limiter.acquire()
        clock.now += 10
        release({ status, headers: {} })
      }
      for (let i = 0; i < 4; i++) await send() // probe of 3, then a trial: share 4
      await send(429)
      expect(limiter.share).toBe(4)
      clock.now = TURN.ms + 2 * (4 - 2) * step - 1
      limiter.delay()
      expect(limiter.share).toBe(4) // the turn has begun, but a share of 4 gives back at 2 * (4 - 2) steps
      clock.now += 1
      limiter.delay()
      expect(limiter.share).toBe(3)
      clock.now += 1000
      limiter.delay()
      expect(limiter.share).toBe(3) // once a turn
    })

    test('a request within the share answered 429 cuts the share by one and keeps its place for the window (no 429 every round trip into a full window)', async () => {
      const { clock, limiter } = await headerless()
      for (let i = 0; i < 2; i++) {
        const trial = await limiter.acquire()
        clock.now += 10
        trial(ok)
      }
      expect(limiter.share).toBe(3)
      clock.now = 2000 // every slot free
      const slots = [await limiter.acquire(), await limiter.acquire(), await limiter.acquire()]
      clock.now += 10
      slots[0]!(ok)
      slots[1]!(ok)
      slots[2]!({ status: 429, headers: {} })
      expect(limiter.share).toBe(2)
      // The share is now two and the refused request keeps its place: the next request waits for
      // the second newest, sent at 2000 (warm: its arrival is its answer less the smallest round
      // trip, 2000) until 3000; no trial leaves before the next turn.
      expect(limiter.delay()).toBe(3000 - clock.now)
    })
  })

  test('pause holds every request back', () => {
    let now = 0
    const limiter = new RateLimiter({ now: () => now })
    limiter.pause(1500)
    expect(limiter.delay()).toBe(1500)
    now = 1500
    expect(limiter.delay()).toBe(0)
  })

  test('an aborted caller leaves the line without taking a slot, also while waiting for a request in flight', async () => {
    let now = 0
    const limiter = new RateLimiter({ perSecond: 1, marginMs: 0, now: () => now })
    const release = await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ name: 'APIUserAbortError' })
    release()
    now = 1000
    expect(limiter.delay()).toBe(0)
  })
})

describe('one limiter shared by the clients of one account', () => {
  test('a burst of 50 calls from two clients (two keys of one account) sharing one limiter gets no 429', async () => {
    const target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const limiter = new RateLimiter()
      const statuses: number[] = []
      const hooks = { onResponse: (e: { status: number }) => statuses.push(e.status) }
      const a = target.client({ apiKey: 'demo-enterprise-key', rateLimit: limiter, retry: false, hooks })
      const b = target.client({ apiKey: 'demo-enterprise-key-2', rateLimit: limiter, retry: false, hooks })
      const params = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 1 } as const
      const started = performance.now()
      await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).exchangeOhlcv(params)))
      const seconds = (performance.now() - started) / 1000
      expect(statuses).toHaveLength(50)
      expect(statuses.filter((s) => s !== 200)).toEqual([])
      expect(target.service.usage().acct_enterprise).toBe(50)
      expect(seconds).toBeGreaterThan(4) // 50 at 10 per second: the limit was really applied
    } finally {
      await target.close()
    }
  }, 20_000)

  test('without the shared limiter the same burst draws 429s: the test above can fail', async () => {
    const target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const statuses: number[] = []
      const hooks = { onResponse: (e: { status: number }) => statuses.push(e.status) }
      const a = target.client({ apiKey: 'demo-enterprise-key', retry: false, hooks })
      const b = target.client({ apiKey: 'demo-enterprise-key-2', retry: false, hooks })
      const params = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 1 } as const
      await Promise.allSettled(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).exchangeOhlcv(params)))
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0)
    } finally {
      await target.close()
    }
  })

  test('catalog calls do not spend the limit (the service never counts them)', async () => {
    const target = await sdkViaHttp()
    try {
      let now = 0
      const limiter = new RateLimiter({ perSecond: 1, now: () => now })
      const client = target.client({ rateLimit: limiter })
      for (let i = 0; i < 5; i++) await client.assets()
      expect(limiter.delay()).toBe(0)
    } finally {
      await target.close()
    }
  })
})
