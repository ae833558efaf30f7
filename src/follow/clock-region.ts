/*
 * What a series of `Date` headers proves about a service's clock, as a convex region of its
 * possible readings: the clock reads `T(w) = a + b·w` at local time `w` (ms after the region's
 * origin), `b` its speed (service ms per local ms), `a` its reading at the origin (ms after the
 * first `Date` seen). An answer dated `D` (whole seconds), sent at local `s` and received at `r`, was
 * dated at some moment of that round trip: `a + b·r >= D` and `a + b·s < D + 1000`. Each answer
 * cuts the region by those two half-planes; an empty region means the clock was moved (or its
 * speed changed) meanwhile.
 */

/** A corner of the region: `b` the speed, `a` the reading at the origin. */
interface Corner {
  b: number
  a: number
}

/** The fastest clock considered (service ms per local ms): a million times wall speed. */
export const MAX_CLOCK_SPEED = 1_000_000
/** Local clocks read whole ms: a bound met within this is met. */
const SLACK_MS = 1
/** More corners than this and the region is replaced by a parallelogram around it (see `#simplify`). */
const MAX_CORNERS = 24

/** The region of the clock's possible readings, from the answers seen since `origin`. */
export class ClockRegion {
  /** Local ms of the first answer's send time; `w` is measured from it. */
  readonly origin: number
  /** The first answer's `Date` (epoch ms); `a` is measured from it. */
  readonly base: number
  #corners: Corner[]

  /** A region from one answer: `date` (epoch ms, whole seconds), sent at local `sent`, received at `received`. */
  constructor(date: number, sent: number, received: number) {
    this.origin = sent
    this.base = date
    const r = received - sent
    this.#corners = [
      { b: 0, a: 0 },
      { b: 0, a: 1000 },
      { b: MAX_CLOCK_SPEED, a: 1000 },
      { b: MAX_CLOCK_SPEED, a: -MAX_CLOCK_SPEED * r },
    ]
  }

  /** Cuts the region by one more answer; false (and the region unchanged) when none of it is left. */
  observe(date: number, sent: number, received: number): boolean {
    const d = date - this.base
    const s = sent - this.origin
    const r = received - this.origin
    // a + b·r - d >= 0, and d + 1000 - a - b·s >= 0.
    const below = clip(this.#corners, (c) => c.a + c.b * r - d + SLACK_MS)
    const cut = below && clip(below, (c) => d + 1000 - c.a - c.b * s + SLACK_MS)
    if (!cut) return false
    this.#corners = cut.length > MAX_CORNERS ? this.#simplify(cut, received) : cut
    return true
  }

  /** The speeds the region allows: [slowest, fastest]. */
  speeds(): [number, number] {
    let low = Infinity
    let high = -Infinity
    for (const c of this.#corners) {
      low = Math.min(low, c.b)
      high = Math.max(high, c.b)
    }
    return [low, high]
  }

  /**
   * The readings the region allows at local time `local` for a clock of speed `speed` (epoch ms),
   * or undefined when that speed is outside it.
   */
  readingsAt(speed: number, local: number): [number, number] | undefined {
    const [low, high] = this.#offsetsAt(speed) ?? []
    if (low === undefined || high === undefined) return undefined
    const run = speed * (local - this.origin)
    return [this.base + low + run, this.base + high + run]
  }

  /** The readings `a` at the origin of a clock of speed `speed`: where the vertical line `b = speed` crosses the region. */
  #offsetsAt(speed: number): [number, number] | undefined {
    let low = Infinity
    let high = -Infinity
    const cs = this.#corners
    for (let i = 0; i < cs.length; i++) {
      const p = cs[i]!
      const q = cs[(i + 1) % cs.length]!
      if (p.b === speed) {
        low = Math.min(low, p.a)
        high = Math.max(high, p.a)
      }
      if ((p.b < speed && q.b > speed) || (p.b > speed && q.b < speed)) {
        const a = p.a + ((q.a - p.a) * (speed - p.b)) / (q.b - p.b)
        low = Math.min(low, a)
        high = Math.max(high, a)
      }
    }
    return low <= high ? [low, high] : undefined
  }

  /**
   * A parallelogram holding the region: its speeds, and for each speed the readings at local
   * `local` it allows at any speed. Looser than the region far from `local`, as tight near it.
   */
  #simplify(corners: Corner[], local: number): Corner[] {
    const w = local - this.origin
    let bLow = Infinity
    let bHigh = -Infinity
    let tLow = Infinity
    let tHigh = -Infinity
    for (const c of corners) {
      bLow = Math.min(bLow, c.b)
      bHigh = Math.max(bHigh, c.b)
      tLow = Math.min(tLow, c.a + c.b * w)
      tHigh = Math.max(tHigh, c.a + c.b * w)
    }
    return [
      { b: bLow, a: tLow - bLow * w },
      { b: bLow, a: tHigh - bLow * w },
      { b: bHigh, a: tHigh - bHigh * w },
      { b: bHigh, a: tLow - bHigh * w },
    ]
  }
}

/** The part of a convex polygon where `side(corner) >= 0` (Sutherland-Hodgman, one edge); undefined when empty. */
function clip(corners: Corner[], side: (c: Corner) => number): Corner[] | undefined {
  const out: Corner[] = []
  for (let i = 0; i < corners.length; i++) {
    const p = corners[i]!
    const q = corners[(i + 1) % corners.length]!
    const fp = side(p)
    const fq = side(q)
    if (fp >= 0) out.push(p)
    if ((fp >= 0 && fq < 0) || (fp < 0 && fq >= 0)) {
      const t = fp / (fp - fq)
      out.push({ b: p.b + (q.b - p.b) * t, a: p.a + (q.a - p.a) * t })
    }
  }
  return out.length === 0 ? undefined : out
}
