import { setTimeout as sleep } from 'node:timers/promises'

/**
 * How long a request keeps its slot after its answer: a second, and a little for the service's
 * clock and ours reading milliseconds differently.
 */
const HOLD_MS = 1010

/**
 * At most `perSecond` requests in any one second as the service (or a gateway before it) sees them,
 * whatever the network does. A request reaches the service between its send and its answer, so
 * each holds one of `perSecond` slots from its send until a second after its answer: the next
 * request that needs that slot arrives at least a second after the one that held it. Pacing sends
 * a fixed gap apart would not do: one delayed request and the next arrive closer than their gap.
 */
export class RequestCap {
  readonly perSecond: number
  /** Per slot, when it is free again (performance.now() ms); Infinity while its request is in flight. */
  readonly #freeAt: number[]
  #released: Array<() => void> = []

  constructor(perSecond: number) {
    this.perSecond = perSecond
    this.#freeAt = Array.from({ length: perSecond }, () => 0)
  }

  /** Waits for a free slot and takes it; call the returned function once the answer is in (or the request failed). */
  async acquire(): Promise<() => void> {
    for (;;) {
      const now = performance.now()
      let slot = 0
      for (let i = 1; i < this.#freeAt.length; i++) if (this.#freeAt[i]! < this.#freeAt[slot]!) slot = i
      const freeAt = this.#freeAt[slot]!
      if (freeAt <= now) {
        this.#freeAt[slot] = Infinity
        let done = false
        return () => {
          if (done) return
          done = true
          this.#freeAt[slot] = performance.now() + HOLD_MS
          const waiting = this.#released
          this.#released = []
          for (const wake of waiting) wake()
        }
      }
      // Every slot in flight: wait for an answer; else for the first slot to come free.
      if (freeAt === Infinity) await new Promise<void>((wake) => this.#released.push(wake))
      else await sleep(freeAt - now)
    }
  }
}
