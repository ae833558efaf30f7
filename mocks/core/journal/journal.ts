import { rawQueryOf } from '../../../src/contract/index.js'
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
  /** Stops waiting: the promise rejects with the signal's reason. */
  signal?: AbortSignal
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

/** What the dispatcher hands the journal for one request. */
export interface JournalRecord {
  method: string
  /** The request's URL as received (path and query); parsed only when listed. */
  url: string
  account: string | null
  status: number | null
  reason: JournalEntry['reason']
  fault: JournalEntry['fault']
  /** Epoch ms on the wall clock and on the service clock. */
  wall: number
  service: number
}

interface Waiter {
  matches(entry: JournalEntry): boolean
  seen: number
  onEntry(): void
}

const iso = (ms: number) => new Date(ms).toISOString()

/** The path and query of a URL as the service reads them (every value of a repeated parameter kept). */
function splitUrl(url: string): { path: string; query: JournalEntry['query'] } {
  const at = url.indexOf('?')
  let path = at < 0 ? url : url.slice(0, at)
  // An absolute URL (a MockRequest may carry one) is journaled by its path.
  if (!path.startsWith('/')) path = URL.canParse(path) ? new URL(path).pathname : path
  // rawQueryOf never writes an undefined value.
  return { path, query: (at < 0 ? {} : rawQueryOf(new URLSearchParams(url.slice(at + 1)))) as JournalEntry['query'] }
}

/**
 * The request journal: every request the service answered, newest last, in a ring buffer of
 * `size` entries so a long-running server's memory stays flat. Size 0 switches it off.
 *
 * Stored as columns of arrays (grown to `size`, then reused), the URL kept as received and parsed
 * only when listed: recording a request allocates nothing once the ring is full, so the journal adds
 * no garbage for the collector to chase.
 */
export class RequestJournal {
  #numbers = new Float64Array(0)
  #strings: (string | null)[] = []
  #details: (Pick<JournalEntry, 'reason' | 'fault'> | null)[] = []
  /** Entries the columns hold so far: they grow up to `size` as requests arrive. */
  #capacity = 0
  #next = 0
  #count = 0
  #seq = 0
  readonly #waiters = new Set<Waiter>()

  constructor(readonly size: number = DEFAULT_JOURNAL_SIZE) {
    if (!Number.isInteger(size) || size < 0) throw new TypeError(`journal.size must be an integer >= 0, got ${size}`)
  }

  /*
   * Per entry: seq, status (-1: none), wall, service; method, url, account; reason and fault.
   * The columns grow by doubling (a few times, then never again) instead of being allocated whole:
   * a full journal is ~64 KB, and a server keeps one per session (up to 1000), most of them never
   * near full. Until the ring first wraps, entries sit at 0..capacity-1, so growing keeps their places.
   */
  #grow(): void {
    const capacity = Math.min(this.size, Math.max(16, this.#capacity * 2))
    const numbers = new Float64Array(capacity * 4)
    numbers.set(this.#numbers)
    this.#numbers = numbers
    while (this.#strings.length < capacity * 3) this.#strings.push(null)
    while (this.#details.length < capacity) this.#details.push(null)
    this.#capacity = capacity
  }

  /** Records one request (a no-op when the journal is off). */
  record(entry: JournalRecord): void {
    if (this.size === 0) return
    const i = this.#next
    if (i === this.#capacity) this.#grow()
    const n = i * 4
    const s = i * 3
    this.#numbers[n] = ++this.#seq
    this.#numbers[n + 1] = entry.status ?? -1
    this.#numbers[n + 2] = entry.wall
    this.#numbers[n + 3] = entry.service
    this.#strings[s] = entry.method
    this.#strings[s + 1] = entry.url
    this.#strings[s + 2] = entry.account
    this.#details[i] = entry.reason === null && entry.fault === null ? null : { reason: entry.reason, fault: entry.fault }
    this.#next = (i + 1) % this.size
    if (this.#count < this.size) this.#count++
    if (this.#waiters.size === 0) return
    const listed = this.#entry(i)
    for (const waiter of this.#waiters) if (waiter.matches(listed)) waiter.seen++, waiter.onEntry()
  }

  #entry(i: number): JournalEntry {
    const n = i * 4
    const s = i * 3
    const status = this.#numbers[n + 1]!
    const details = this.#details[i]
    return {
      seq: this.#numbers[n]!,
      method: this.#strings[s]!,
      ...splitUrl(this.#strings[s + 1]!),
      account: this.#strings[s + 2]!,
      status: status < 0 ? null : status,
      reason: details?.reason ?? null,
      fault: details?.fault ?? null,
      time: { wall: iso(this.#numbers[n + 2]!), service: iso(this.#numbers[n + 3]!) },
    }
  }

  /** The recorded requests matching `filter`, oldest first. */
  list(filter?: JournalFilter): JournalEntry[] {
    const matches = matcherOf(filter)
    const out: JournalEntry[] = []
    const first = (this.#next - this.#count + this.size) % Math.max(1, this.size)
    for (let k = 0; k < this.#count; k++) {
      const entry = this.#entry((first + k) % this.size)
      if (matches(entry)) out.push(entry)
    }
    return out
  }

  /** Forgets every recorded request (the `seq` numbers go on). */
  clear(): void {
    this.#count = 0
    this.#strings.fill(null)
    this.#details.fill(null)
  }

  /**
   * Resolves with the matching requests once `count` of them are in the journal (those already
   * there count); rejects with a {@link RequestWaitTimeoutError} holding what did arrive after `timeoutMs`.
   */
  waitFor(filter: JournalFilter = {}, options: WaitOptions = {}): Promise<JournalEntry[]> {
    let matches: (entry: JournalEntry) => boolean
    try {
      matches = matcherOf(filter)
    } catch (error) {
      // A promise-returning call reports a bad filter by rejecting, not by throwing.
      return Promise.reject(error)
    }
    const { count = 1, timeoutMs = 5000 } = options
    if (!Number.isInteger(count) || count < 1) return Promise.reject(new TypeError(`count must be an integer >= 1, got ${count}`))
    if (!(typeof timeoutMs === 'number' && timeoutMs >= 0 && timeoutMs <= 2_147_483_647)) {
      return Promise.reject(new TypeError(`timeoutMs must be a number of milliseconds from 0 to 2147483647, got ${timeoutMs}`))
    }
    if (this.size === 0) return Promise.reject(new TypeError('The request journal is off (journal size 0): there is nothing to wait for'))
    const { signal } = options
    if (signal?.aborted) return Promise.reject(signal.reason)
    const present = this.list(filter)
    if (present.length >= count) return Promise.resolve(present)
    return new Promise((resolve, reject) => {
      const settle = (outcome: () => void) => {
        this.#waiters.delete(waiter)
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        outcome()
      }
      const waiter: Waiter = {
        matches,
        seen: present.length,
        onEntry: () => {
          if (waiter.seen >= count) settle(() => resolve(this.list(filter)))
        },
      }
      const onAbort = () => settle(() => reject(signal!.reason))
      const timer = setTimeout(() => {
        const arrived = this.list(filter)
        settle(() => reject(new RequestWaitTimeoutError(`Timed out after ${timeoutMs} ms waiting for ${count} request(s) matching ${JSON.stringify(filter)}: ${waiter.seen} arrived`, arrived)))
      }, timeoutMs)
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#waiters.add(waiter)
    })
  }
}
