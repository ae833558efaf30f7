import { describeIssue, type RawQuery } from '../../../src/contract/index.js'
import { faultSchema, kindOf, type Fault, type FaultKind } from './fault-schema.js'
import { drawLatency, seededRandom } from './seeded-random.js'

export { faultSchema, type Fault } from './fault-schema.js'

/** A queued fault as listed: its id, its fields as given, and how many requests it still applies to (null: unlimited). */
export interface PendingFault extends Omit<Fault, 'times'> {
  id: string
  times: number | null
}

/** What a fault is matched against. */
export interface FaultTarget {
  path: string
  query: RawQuery
  /** The account of the request's key; undefined without a valid one. */
  account: string | undefined
}

/** A fault chosen for a request. */
export interface AppliedFault {
  id: string
  kind: FaultKind
  fault: Fault
  /** `latency`: the delay drawn for this request. */
  delayMs?: number
}

interface Queued {
  id: string
  fault: Fault
  remaining: number | null
  /** Matching requests let through so far, for `after`. */
  passed: number
  random: () => number
}

/** The kinds an adapter can deliver, when it cannot deliver all of them. */
interface Restriction {
  adapter: string
  kinds: ReadonlySet<FaultKind>
  why: string
}

/**
 * Which fault kinds the adapters serving a service can deliver; shared by a service and its sessions,
 * so a fault an adapter cannot deliver is refused when added, never silently skipped.
 */
export class FaultCapabilities {
  /** @internal */
  readonly restrictions: Restriction[] = []

  /** Declares that `adapter` can deliver only `kinds` (`why` says what it lacks). */
  restrict(adapter: string, kinds: readonly FaultKind[], why: string): void {
    if (!this.restrictions.some((r) => r.adapter === adapter)) this.restrictions.push({ adapter, kinds: new Set(kinds), why })
  }

  /** Throws a `TypeError` naming the adapter when one cannot deliver `kind`. */
  check(kind: FaultKind): void {
    const lacking = this.restrictions.find((r) => !r.kinds.has(kind))
    if (lacking) {
      throw new TypeError(
        `The ${lacking.adapter} cannot inject a '${kind}' fault (${lacking.why}). It can inject: ${[...lacking.kinds].join(', ')}. The standalone server (market-candles serve, startMockServer) injects every kind.`,
      )
    }
  }
}

/** Injected faults: the first pending fault that matches a request applies to it. */
export class FaultQueue {
  #faults: Queued[] = []
  #next = 1

  constructor(
    /** The adapters' limits, shared with the service's sessions. */
    readonly capabilities: FaultCapabilities = new FaultCapabilities(),
  ) {}

  /**
   * Queues a fault and returns its id. Throws a `TypeError` naming the field for a bad fault, or
   * naming the adapter when one serving this service cannot deliver its kind.
   *
   * @example
   * service.faults.add({ path: '/v1/exchange_ohlcv', status: 503, times: 2 }) // 'fault-1'
   * service.faults.add({ kind: 'truncate', after_bytes: 100, query: { interval: '1m' } })
   * service.faults.add({ kind: 'latency', latency_ms: { dist: 'lognormal', median_ms: 50, sigma: 0.5 }, probability: 0.2, seed: 7 })
   */
  add(fault: Fault): string {
    const result = faultSchema.safeParse(fault)
    if (!result.success) throw new TypeError(describeIssue(result.error.issues[0]!, 'Fault'))
    const data = result.data
    this.capabilities.check(kindOf(data))
    const id = `fault-${this.#next++}`
    const remaining = data.times ?? (data.probability === undefined ? 1 : null)
    this.#faults.push({ id, fault: data, remaining, passed: 0, random: seededRandom(data.seed ?? 1) })
    return id
  }

  /** The faults not yet used up, in the order they apply (copies). */
  list(): PendingFault[] {
    return this.#faults.map((q) => ({ id: q.id, ...structuredClone(q.fault), times: q.remaining }))
  }

  /** Drops every queued fault. */
  clear(): void {
    this.#faults = []
  }

  /** True when some pending fault matches on the account (the key must then be looked up first). @internal */
  get matchesAccounts(): boolean {
    return this.#faults.some((q) => q.fault.account !== undefined)
  }

  /** The first fault that applies to a request, using one of its `times`. @internal */
  take(target: FaultTarget): AppliedFault | undefined {
    for (let i = 0; i < this.#faults.length; i++) {
      const queued = this.#faults[i]!
      const { fault } = queued
      if (!matches(fault, target)) continue
      if (queued.passed < (fault.after ?? 0)) {
        queued.passed++
        continue
      }
      if (fault.probability !== undefined && queued.random() >= fault.probability) continue
      if (queued.remaining !== null && --queued.remaining === 0) this.#faults.splice(i, 1)
      const kind = kindOf(fault)
      return { id: queued.id, kind, fault, ...(kind === 'latency' ? { delayMs: drawLatency(fault.latency_ms!, queued.random) } : {}) }
    }
    return undefined
  }
}

function matches(fault: Fault, target: FaultTarget): boolean {
  if (fault.path !== undefined && fault.path !== target.path) return false
  if (fault.account !== undefined && fault.account !== target.account) return false
  for (const [key, value] of Object.entries(fault.query ?? {})) if (target.query[key] !== value) return false
  return true
}
