import { formatLag } from '../progress/follow-progress.js'

/** What an outage watch needs from its export. */
export interface OutageWatchOptions {
  /** Prints one line (stderr). */
  say(line: string): void
  /** Wall clock in ms (performance.now by default). */
  now?: () => number
  /** Wall clock as a date for the lines (Date.now by default). */
  wallDate?: () => number
  /**
   * Failures with no answer in between for this long make an outage (one that fails a request for
   * good does at once): a lone retried 503 is not worth two lines. @default 5000
   */
  declareAfterMs?: number
}

interface Outage {
  /** When the first failure came (wall ms of `now`), and as a date. */
  since: number
  sinceDate: number
  reason: string
  /** When the service answered again; undefined while it still fails. */
  backAt: number | undefined
  /** Series still catching up since the service answered again. */
  pending: Set<string>
  caughtUp: number
}

/**
 * Turns the follow's request failures and answers into two lines per outage: one when it starts
 * (failures for `declareAfterMs`, or a request that failed for good), one when it is over (the
 * service answers and every followed series has caught up to the edge again), with its length and
 * the candles caught up. Never a line per retry. Keeps the total outage time for the metrics.
 */
export class OutageWatch {
  readonly #say: (line: string) => void
  readonly #now: () => number
  readonly #wallDate: () => number
  readonly #declareAfterMs: number
  #firstFailure: { at: number; date: number; reason: string } | undefined
  #outage: Outage | undefined
  #doneMs = 0
  #count = 0
  /** The series being followed (labels); empty before the follow starts. */
  #following = new Set<string>()
  /** Whether a series' stored candles reach the edge of the service's time. */
  #atEdge: (label: string) => boolean = () => true

  constructor(options: OutageWatchOptions) {
    this.#say = options.say
    this.#now = options.now ?? (() => performance.now())
    this.#wallDate = options.wallDate ?? (() => Date.now())
    this.#declareAfterMs = options.declareAfterMs ?? 5000
  }

  /** The follow has started (again) with these series; `atEdge` tells whether one is caught up. */
  following(labels: Iterable<string>, atEdge: (label: string) => boolean): void {
    this.#following = new Set(labels)
    this.#atEdge = atEdge
  }

  /** A series' follow ended: it no longer needs catching up. */
  ended(label: string): void {
    this.#following.delete(label)
    this.#outage?.pending.delete(label)
    this.#maybeOver()
  }

  /** An attempt failed without a usable answer (no answer, 5xx); `final` when it failed for good. */
  failure(reason: string, final = false): void {
    const now = this.#now()
    this.#firstFailure ??= { at: now, date: this.#wallDate(), reason }
    const outage = this.#outage
    if (outage !== undefined) {
      // Failing again while catching up: the same outage goes on.
      if (outage.backAt !== undefined) {
        outage.backAt = undefined
        outage.reason = reason
      }
      return
    }
    if (!final && now - this.#firstFailure.at < this.#declareAfterMs) return
    const first = this.#firstFailure
    this.#outage = { since: first.at, sinceDate: first.date, reason, backAt: undefined, pending: new Set(), caughtUp: 0 }
    this.#count++
    this.#say(`export: outage: the service fails since ${isoSeconds(first.date)} (${reason}); waiting it out, retrying with backoff. The next line says when it is over.`)
  }

  /** An attempt got an answer that is not a failure (2xx, 4xx): the service is there. */
  answered(): void {
    this.#firstFailure = undefined
    const outage = this.#outage
    if (outage === undefined || outage.backAt !== undefined) return
    outage.backAt = this.#now()
    outage.pending = new Set([...this.#following].filter((label) => !this.#atEdge(label)))
    this.#maybeOver()
  }

  /** The follow is live again (the SDK's state): every series has caught up. */
  live(): void {
    this.answered()
    this.#outage?.pending.clear()
    this.#maybeOver()
  }

  /** A page of `label` was written; `atEdge` once its series is caught up. */
  pageWritten(label: string, candles: number): void {
    const outage = this.#outage
    if (outage === undefined) return
    outage.caughtUp += candles
    if (outage.backAt !== undefined && this.#atEdge(label)) {
      outage.pending.delete(label)
      this.#maybeOver()
    }
  }

  /** Whether an outage is on (declared, the service not answering yet or the follow catching up). */
  get inOutage(): boolean {
    return this.#outage !== undefined
  }

  /** Whether the service is failing right now (an outage declared and not answered yet). */
  get failing(): { sinceMs: number; reason: string } | undefined {
    const outage = this.#outage
    return outage !== undefined && outage.backAt === undefined ? { sinceMs: this.#now() - outage.since, reason: outage.reason } : undefined
  }

  /** Outages declared so far. */
  get count(): number {
    return this.#count
  }

  /** Seconds of outage so far: each one from its first failure to the service's first answer after it. */
  totalSeconds(): number {
    const outage = this.#outage
    const current = outage === undefined ? 0 : (outage.backAt ?? this.#now()) - outage.since
    return (this.#doneMs + current) / 1000
  }

  #maybeOver(): void {
    const outage = this.#outage
    if (outage === undefined || outage.backAt === undefined || outage.pending.size > 0) return
    const lengthMs = outage.backAt - outage.since
    this.#doneMs += lengthMs
    this.#outage = undefined
    const series = this.#following.size
    const caught = outage.caughtUp === 0 ? 'nothing was missed' : `caught up ${outage.caughtUp} candle${outage.caughtUp === 1 ? '' : 's'} of ${series} series`
    this.#say(`export: outage over: the service failed for ${formatLag(lengthMs)} (${isoSeconds(outage.sinceDate)} to ${isoSeconds(outage.sinceDate + lengthMs)}); ${caught}; following again.`)
  }
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
