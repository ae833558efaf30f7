import type { JournalEntry, JournalFilter } from './journal-entry.js'
import { matcherOf } from './journal-filter.js'

/** How many requests the journal keeps by default; older ones are dropped first. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** Options of `waitForRequests`. */
export interface WaitOptions {
  /** How many matching requests to wait for. @default 1 */
  count?: number
  /** Give up after this many milliseconds. @default 5000 */
  timeoutMs?: number
}

/** Thrown (rejected) by `waitForRequests` when fewer than `count` matching requests arrived in time. */
export class RequestWaitTimeoutError extends Error {
  override name = 'RequestWaitTimeoutError'
  constructor(
    message: string,
    /** The matching requests that did arrive. */
    readonly requests: JournalEntry[],
  ) {
    super(message)
  }
}

// An entry as stored: times stay numbers until listed, so recording costs no date formatting.
type Stored = Omit<JournalEntry, 'time'> & { wall: number; service: number }

interface Waiter {
  matches(entry: JournalEntry): boolean
  seen: number
  onEntry(): void
}

const toEntry = ({ wall, service, ...rest }: Stored): JournalEntry => ({ ...rest, time: { wall: new Date(wall).toISOString(), service: new Date(service).toISOString() } })

/**
 * The request journal: every request the service answered, newest last, in a ring buffer of
 * `size` entries so a long-running server's memory stays flat. Size 0 switches it off.
 */
export class RequestJournal {
  readonly #ring: (Stored | undefined)[]
  #next = 0
  #seq = 0
  readonly #waiters = new Set<Waiter>()

  constructor(readonly size: number = DEFAULT_JOURNAL_SIZE) {
    if (!Number.isInteger(size) || size < 0) throw new TypeError(`journal.size must be an integer >= 0, got ${size}`)
    this.#ring = new Array(size)
  }

  /** Records one request (a no-op when the journal is off). */
  record(entry: Omit<Stored, 'seq'>): void {
    if (this.size === 0) return
    const stored = { seq: ++this.#seq, ...entry }
    this.#ring[this.#next] = stored
    this.#next = (this.#next + 1) % this.size
    if (this.#waiters.size === 0) return
    const listed = toEntry(stored)
    for (const waiter of this.#waiters) if (waiter.matches(listed)) waiter.seen++, waiter.onEntry()
  }

  /** The recorded requests matching `filter`, oldest first. */
  list(filter?: JournalFilter): JournalEntry[] {
    const matches = matcherOf(filter)
    const out: JournalEntry[] = []
    for (let i = 0; i < this.size; i++) {
      const stored = this.#ring[(this.#next + i) % this.size]
      if (!stored) continue
      const entry = toEntry(stored)
      if (matches(entry)) out.push(entry)
    }
    return out
  }

  /** Forgets every recorded request (the `seq` numbers go on). */
  clear(): void {
    this.#ring.fill(undefined)
  }

  /**
   * Resolves with the matching requests once `count` of them are in the journal (those already
   * there count); rejects with a {@link RequestWaitTimeoutError} holding what did arrive after `timeoutMs`.
   */
  waitFor(filter: JournalFilter = {}, options: WaitOptions = {}): Promise<JournalEntry[]> {
    const matches = matcherOf(filter)
    const { count = 1, timeoutMs = 5000 } = options
    if (!Number.isInteger(count) || count < 1) return Promise.reject(new TypeError(`count must be an integer >= 1, got ${count}`))
    if (!(typeof timeoutMs === 'number' && timeoutMs >= 0 && timeoutMs <= 2_147_483_647)) {
      return Promise.reject(new TypeError(`timeoutMs must be a number of milliseconds from 0 to 2147483647, got ${timeoutMs}`))
    }
    if (this.size === 0) return Promise.reject(new TypeError('The request journal is off (journal size 0): there is nothing to wait for'))
    const present = this.list(filter)
    if (present.length >= count) return Promise.resolve(present)
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        seen: present.length,
        onEntry: () => {
          if (waiter.seen < count) return
          this.#waiters.delete(waiter)
          clearTimeout(timer)
          resolve(this.list(filter))
        },
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter)
        const arrived = this.list(filter)
        reject(new RequestWaitTimeoutError(`Timed out after ${timeoutMs} ms waiting for ${count} request(s) matching ${JSON.stringify(filter)}: ${waiter.seen} arrived`, arrived))
      }, timeoutMs)
      this.#waiters.add(waiter)
    })
  }
}
