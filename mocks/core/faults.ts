import type { MockResponse } from './types.js'
import { json } from './respond.js'

/**
 * A fault to inject: the next `times` requests matching `path` get this answer instead of the
 * service's. Faulted requests are never counted in usage.
 */
export interface Fault {
  /** Endpoint path to match, e.g. `/v1/exchange_ohlcv`; every path when omitted. */
  path?: string
  /** Status to answer, e.g. 503. Ignored when `networkError` is set. @default 500 */
  status?: number
  /** JSON body. @default {"detail": "Injected fault"} */
  body?: unknown
  headers?: Record<string, string>
  /** Break the connection instead of answering. */
  networkError?: boolean
  /** How many matching requests it applies to. @default 1 */
  times?: number
}

/** Injected faults, consumed in the order they were added. */
export class FaultQueue {
  #faults: Array<Required<Pick<Fault, 'times'>> & Fault> = []

  /** Queues a fault. */
  add(fault: Fault): void {
    const times = fault.times ?? 1
    if (!Number.isInteger(times) || times < 1) throw new TypeError(`Fault.times must be a positive integer, got ${times}`)
    const status = fault.status ?? 500
    // 204/205/304 cannot carry the JSON body every fault answer has.
    if (!Number.isInteger(status) || status < 200 || status > 599 || [204, 205, 304].includes(status)) {
      throw new TypeError(`Fault.status must be an integer status from 200 to 599 with a body (not 204, 205, 304), got ${status}`)
    }
    this.#faults.push({ ...fault, times })
  }

  /** Drops every queued fault. */
  clear(): void {
    this.#faults = []
  }

  /** The response of the first fault matching `path`, using it up. */
  take(path: string): MockResponse | undefined {
    const index = this.#faults.findIndex((f) => f.path === undefined || f.path === path)
    if (index < 0) return undefined
    const fault = this.#faults[index]!
    if (--fault.times === 0) this.#faults.splice(index, 1)
    if (fault.networkError) return { status: 0, headers: {}, body: null, networkError: true }
    return json(fault.status ?? 500, fault.body ?? { detail: 'Injected fault' }, fault.headers)
  }
}
