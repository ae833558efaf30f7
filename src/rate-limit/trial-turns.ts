/**
 * Tuning of {@link TrialTurns}, in milliseconds: the length of a turn (in bench/rate-limit/rate-limit-sim.ts,
 * 8 s shared better than 6 s between 2 and 4 clients, and evened out sooner than 10 s); how long
 * after the window that follows a turn's start the first trials leave; the least step between the trials of limiters holding one
 * request more (two steps) or of equal shares (one), and the step in round trips.
 *
 * Learning sooner that another client has gone costs more than it wins (the same simulation, 300
 * runs of 4 clients, 2026-11-29): 4-s turns, a second trial half-way through a turn (by the limiters
 * that trial or by the one that rests, always or at random), or one trial beyond the place won
 * instead of as many as pass, walked 8.8-9.2 pages/s with 3.2-7.3 % of 429s, against 9.15-9.2 and
 * 3.4 %. Even limiters told of each departure the moment its room frees walk only 9.24-9.30.
 */
export const TURN = { ms: 8000, after: 50, minStepMs: 40, stepRoundTrips: 1.5 }

/**
 * When a limiter sends a *trial*, one request beyond its share, to learn whether the account has
 * room, when the deployment sends no `RateLimit-*` headers (a 429 with `Retry-After` only, or with
 * nothing: any deployment may, D13). Only a 429 says the window is full, so every refused trial
 * costs one; and limiters that kept whatever they once won would never share the account evenly
 * (10 requests a second between 4 clients: 3, 3, 2, 2), so clients walking as much as each other
 * would finish far apart, the last ones walking alone at a small share.
 *
 * - Alone so far (no 429 since the probe): trials follow one another at once, so a limiter alone
 *   has the whole window within a few round trips.
 * - Once it met a 429, it trials in *turns* only. Turns start at multiples of {@link TURN}.ms of the
 *   wall clock (`Date.now()`), the same instants for every client of the account. In a turn every
 *   limiter holding 2 requests or more, and less than the whole window, gives one back (holding
 *   more, later: one window before the trials of the share below its own begin, so the place stays
 *   empty about a window). Once free, the places are won back by trials smallest share first; of
 *   equal shares, the limiter that held less before the turn goes first. The places left over so
 *   go round: 4 clients hold 3, 3, 2, 2 in one turn and 2, 2, 3, 3 in the next.
 * - The round costs as little as it can: a limiter that ended the last turn below what it held
 *   then (it gave a place up) gives nothing back in this one, it only trials; a limiter that ended
 *   above (it won a place another gave up) gives one back and trials not at all, so that the one
 *   who gave takes it. With 3, 3, 2, 2 two places change hands each turn, and only the two limiters
 *   that trial may meet a refusal (one beyond what they took); giving back and winning back the same
 *   place cost a place empty for a second and a refused trial per limiter (bench/rate-limit/rate-limit-sim.ts:
 *   4 clients walking 240 pages, 9.0-9.2 pages/s and 3.2-3.6 % of 429s instead of 8.6-9.1 and
 *   4.0-4.4 %, round trips 100 ms plus up to 20-60 ms of jitter, 48 runs each).
 * - A limiter trials at most one beyond what it held before the turn, or back to what it held a
 *   turn earlier if that is more (another's trial cut it: 429s within its share), unless every
 *   trial of its turn before passed (room was left: others may have gone).
 * - A limiter that won back its second place keeps it (gives nothing back): a limiter crowded down
 *   to one place would otherwise regain one place every other turn (bench/rate-limit/rate-limit-sim.ts,
 *   `JIT=20`, 300 runs of 4 clients: under 8.5 pages/s 17 % → 8 %; 6 clients 8.4 → 9.1 pages/s, with
 *   429s 8.8 → 9.6 %).
 * A refused trial ends the limiter's trials for the turn: at most one refused trial per limiter per turn.
 */
export class TrialTurns {
  /** A 429 was met since the probe: trials wait for turns. */
  #contended = false
  #pending = false
  /** When the current turn began, and when the next begins (wall clock). */
  #turnAt = -Infinity
  #nextTurn = Infinity
  /** The share before this turn's give-back. */
  #held = 0
  /** No trial to a share beyond this one in this turn. */
  #cap = Infinity
  /** A trial or a request within the share was refused in this turn: its trials ended, and the next turn's are capped. */
  #refused = false
  /** A request is still to be given back in this turn. */
  #givesBack = false
  /** No trial in this turn: the limiter gives back the place it won in the last one, to the one who gave it. */
  #resting = false
  readonly #wall: () => number

  /** @param wall the wall clock, in milliseconds: the same for every client of the account. */
  constructor(wall: () => number) {
    this.#wall = wall
  }

  /**
   * How many requests to give back now (0 or 1), given the share (2 or more, less than `limit`, to
   * give one): 1 once a turn (not after a turn that ended below what the limiter held), at its start
   * for a share of 2 and later for larger ones (see {@link TrialTurns.wait}), so that the place stays
   * empty for about one window only. Call before deciding on a request.
   */
  turn(share: number, limit: number, roundTripMs: number): number {
    if (!this.#contended) return 0
    const wall = this.#wall()
    if (wall >= this.#nextTurn) {
      const passedAll = !this.#refused
      // Against what it held at the last turn's start (none before the first turn).
      const lost = this.#held > 0 && share < this.#held
      const gained = this.#held > 0 && share > this.#held
      this.#refused = false
      this.#turnAt = Math.floor(wall / TURN.ms) * TURN.ms
      this.#nextTurn = this.#turnAt + TURN.ms
      // A limiter that another's trial cut (a 429 within its share) may trial back to what it held
      // a turn ago, not only one beyond what it holds now: cut to 1, it would otherwise climb one
      // place a turn while others keep what they took.
      this.#cap = passedAll ? Infinity : Math.max(share + 1, this.#held)
      this.#held = share
      // A limiter that won back its second place keeps it: giving it back, it would walk on one alone.
      this.#givesBack = share >= 2 && share < limit && !lost && !(gained && share === 2)
      this.#resting = this.#givesBack && gained
    }
    // Given back one window before the trials of the share below it begin (their order: 2 * (share - 2)),
    // so a smaller limiter's trial beyond what it held finds this place free.
    if (!this.#givesBack || wall < this.#turnAt + 2 * (this.#held - 2) * this.#step(roundTripMs)) return 0
    this.#givesBack = false
    return 1
  }

  /**
   * Milliseconds until a trial may leave, given the share (after `turn`); Infinity when none may
   * in this turn or one is in flight.
   */
  wait(share: number, windowMs: number, limit: number, roundTripMs: number): number {
    if (this.#pending || share >= limit) return Infinity
    if (!this.#contended) return 0
    if (this.#refused || this.#resting || share >= this.#cap) return Infinity
    // Smaller shares first; of equal shares, the one that held less before the turn first (half a
    // share's step later). A step outlasts a round trip: a limiter's next trial waits for its last one's answer.
    const order = 2 * (share - 1) + (this.#held > share ? 1 : 0)
    return Math.max(0, this.#turnAt + windowMs + TURN.after + this.#step(roundTripMs) * order - this.#wall())
  }

  #step(roundTripMs: number): number {
    return Math.max(TURN.minStepMs, TURN.stepRoundTrips * (Number.isFinite(roundTripMs) ? roundTripMs : 0))
  }

  /** A trial left. */
  sent(): void {
    this.#pending = true
  }

  /** The trial was answered 200. */
  passed(): void {
    this.#pending = false
  }

  /** The trial was answered 429: the window is full. */
  refused(): void {
    this.#pending = false
    this.#full()
  }

  /** A request within the share was answered 429: another limiter's trial took its place. */
  yielded(): void {
    this.#full()
  }

  /** The trial got no answer the limiter can read (a 5xx, a lost connection): the next may go. */
  lost(): void {
    this.#pending = false
  }

  /** Forgets what was learnt (after an idle spell, who uses the account may have changed). */
  reset(): void {
    this.#contended = false
    this.#pending = false
    this.#turnAt = -Infinity
    this.#nextTurn = Infinity
    this.#held = 0
    this.#cap = Infinity
    this.#refused = false
    this.#givesBack = false
    this.#resting = false
  }

  #full(): void {
    this.#refused = true
    if (this.#contended) return
    this.#contended = true
    this.#nextTurn = (Math.floor(this.#wall() / TURN.ms) + 1) * TURN.ms
  }
}
