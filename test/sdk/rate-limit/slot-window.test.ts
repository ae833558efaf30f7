import { describe, expect, test } from 'vitest'
import { nextFreeTimes, slotFreeAt, windowDelay, type WindowSlot } from '../../../src/rate-limit/slot-window.js'

// The window policy both limiters share (contract: rate-limit): at most `share` requests in any window.
describe('the shared window policy', () => {
  const window = 1000
  test('a warm slot is held one window after its latest plausible arrival: completion less the smallest round trip', () => {
    expect(slotFreeAt({ sent: 0, cold: false, completed: 100 }, 40, window, 500)).toBe(1060)
    // never earlier than one window after it was sent
    expect(slotFreeAt({ sent: 0, cold: false, completed: 100 }, 400, window, 500)).toBe(1000)
  })

  test('a cold slot counts from its completion', () => {
    expect(slotFreeAt({ sent: 0, cold: true, completed: 100 }, 40, window, 500)).toBe(1100)
  })

  test('a slot in flight holds the window until it completes, or until its lease lapses (its worker is gone)', () => {
    const inFlight: WindowSlot = { sent: 0, cold: false, leaseUntil: 3000 }
    expect(slotFreeAt(inFlight, 40, window, 2999)).toBeUndefined()
    expect(slotFreeAt(inFlight, 40, window, 3000)).toBe(4000)
    expect(slotFreeAt({ sent: 0, cold: false }, 40, window, 1e9)).toBeUndefined()
  })

  test('the next request waits for the share-th newest slot, and for a pause', () => {
    const slots: WindowSlot[] = [
      { sent: 0, cold: false, completed: 50 },
      { sent: 10, cold: false, completed: 60 },
      { sent: 20, cold: false },
    ]
    const state = { slots, minRoundTrip: 50, pausedUntil: 0 }
    expect(windowDelay(state, 4, window, 100)).toBe(0)
    expect(windowDelay(state, 3, window, 100)).toBe(900) // the oldest: 50 - 50 + 1000
    expect(windowDelay(state, 1, window, 100)).toBe(Infinity) // the newest is in flight
    expect(windowDelay({ ...state, pausedUntil: 2500 }, 4, window, 100)).toBe(2400)
  })

  test('the next takes, for workers that take after others: each waits for the slot that blocks it then, and none waits for one in flight', () => {
    const slots: WindowSlot[] = [
      { sent: 0, cold: false, completed: 50 },
      { sent: 10, cold: false, completed: 60 },
      { sent: 20, cold: false },
    ]
    const state = { slots, minRoundTrip: 50, pausedUntil: 0 }
    // share 3: the first take waits for the oldest (1000), the second for the next (1010), the third for one in flight
    expect(nextFreeTimes(state, 3, window, 100)).toEqual([1000, 1010])
    // share 5: two takes are free now, then the same two waits
    expect(nextFreeTimes(state, 5, window, 100)).toEqual([100, 100, 1000, 1010])
    expect(nextFreeTimes({ ...state, pausedUntil: 1005 }, 3, window, 100)).toEqual([1005, 1010])
    expect(nextFreeTimes(state, 3, window, 100)[0]).toBe(100 + windowDelay(state, 3, window, 100))
  })
})
