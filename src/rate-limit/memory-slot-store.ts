import { NO_MINIMUM, smallest, withRoundTrip } from './aging-minimum.js'
import type { WindowSlot, WindowState } from './slot-window.js'

/**
 * The slots of one process's limiter, in memory: the latest `capacity` of them (older ones can no
 * longer block anything), the smallest round trip of the last few seconds (aging-minimum.ts) and
 * the pause after a 429.
 */
export class MemorySlotStore<S extends WindowSlot> implements WindowState<S> {
  readonly #capacity: number
  readonly slots: S[] = []
  #roundTrips = NO_MINIMUM
  pausedUntil = 0

  constructor(capacity: number) {
    this.#capacity = capacity
  }

  /** Takes a slot: it becomes the newest. */
  push(slot: S): void {
    this.slots.push(slot)
    if (this.slots.length > this.#capacity) this.slots.shift()
  }

  /** Marks a slot's request answered at `at`, after a round trip of `roundTrip` ms. */
  complete(slot: S, at: number, roundTrip: number): void {
    slot.completed = at
    this.#roundTrips = withRoundTrip(this.#roundTrips, roundTrip, at)
  }

  get minRoundTrip(): number {
    return smallest(this.#roundTrips)
  }

  /** Gives a slot's place back: its request was not counted (refused with a 429). */
  drop(slot: S): void {
    const i = this.slots.indexOf(slot)
    if (i >= 0) this.slots.splice(i, 1)
  }

  /** Holds every request back until `until`. */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until)
  }
}
