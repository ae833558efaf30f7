/**
 * The scheduling policy every limiter of this package shares, whatever stores its slots (memory in
 * one process, Redis across processes): at most `share` requests reach the service in any window of
 * `windowMs`, the sliding window the service counts with (contract: rate-limit).
 *
 * The service counts a request when it arrives, which the client cannot see; it only knows when the
 * request left and when its answer came back. A slot is therefore held until one window after the
 * request's latest plausible arrival: its completion less the smallest round trip of the last few
 * seconds (a request cannot have arrived later than that, unless its outbound trip was slower than
 * the fastest one; older round trips age out, aging-minimum.ts, so a path that got slower is not
 * timed with the old one's). A
 * cold slot (new connections after start or an idle spell: outbound trips slow and unequal) counts
 * from its completion.
 */

/** One request's slot: when it left, when its answer came back, whether its connection was cold. */
export interface WindowSlot {
  readonly sent: number
  readonly cold: boolean
  completed?: number
  /**
   * While in flight, the slot is held until its request completes; past this time it is taken as
   * completed then (its holder is gone: a process that died mid-request). Undefined: held until it completes.
   */
  readonly leaseUntil?: number
}

/** What the policy decides on: the latest slots (oldest first, at most the account's rate of them) and the shared state. */
export interface WindowState<S extends WindowSlot = WindowSlot> {
  readonly slots: readonly S[]
  /** The smallest round trip of the last few seconds, in milliseconds (Infinity before the first; aging-minimum.ts). */
  readonly minRoundTrip: number
  /** No request leaves before this time (a 429's `Retry-After`). */
  readonly pausedUntil: number
}

/** When a slot may be reused; undefined while its request is still in flight. */
export function slotFreeAt(slot: WindowSlot, minRoundTrip: number, windowMs: number, now: number): number | undefined {
  const completed = slot.completed ?? (slot.leaseUntil !== undefined && now >= slot.leaseUntil ? slot.leaseUntil : undefined)
  if (completed === undefined) return undefined
  const arrival = slot.cold || slot.completed === undefined ? completed : Math.max(slot.sent, completed - minRoundTrip)
  return arrival + windowMs
}

/** The slot the next request must wait for, if `share` slots are held. */
export function blockingSlot<S extends WindowSlot>(slots: readonly S[], share: number): S | undefined {
  return slots.length < share ? undefined : slots[slots.length - share]
}

/**
 * When each of the next `count` requests may leave (at most `share`: later ones wait for slots not
 * taken yet), earliest first; it stops before the first that waits for a request in flight. Workers
 * sharing a store use it to take a slot after others took some since they looked.
 */
export function nextFreeTimes(state: WindowState, share: number, windowMs: number, now: number, count = share): number[] {
  const times: number[] = []
  for (let j = 0; j < Math.min(count, share); j++) {
    const i = state.slots.length + j - share
    const freeAt = i < 0 ? now : slotFreeAt(state.slots[i]!, state.minRoundTrip, windowMs, now)
    if (freeAt === undefined) break
    times.push(Math.max(freeAt, state.pausedUntil, times.at(-1) ?? -Infinity))
  }
  return times
}

/**
 * Milliseconds until one more request may leave: 0 when it may leave now, `Infinity` while it waits
 * for a request in flight to come back.
 */
export function windowDelay(state: WindowState, share: number, windowMs: number, now: number): number {
  const slot = blockingSlot(state.slots, share)
  const freeAt = slot === undefined ? now : slotFreeAt(slot, state.minRoundTrip, windowMs, now)
  if (freeAt === undefined) return Infinity
  return Math.max(0, freeAt - now, state.pausedUntil - now)
}
