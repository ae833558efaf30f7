import * as z from 'zod/mini'
import { describeIssue } from '../../src/contract/index.js'
import type { MockResponse } from './types.js'
import { json } from './respond.js'

// 204, 205 and 304 cannot carry the JSON body every fault answer has.
const BODYLESS = [204, 205, 304]

/**
 * A fault to inject: the next `times` requests matching `path` get this answer instead of the
 * service's. Faulted requests are never counted in usage. The same shape is the JSON body of
 * `POST /_mock/faults` on the standalone server.
 */
export const faultSchema = z.strictObject({
  /** Endpoint path to match, e.g. `/v1/exchange_ohlcv`; every path when omitted. */
  path: z.optional(z.string().check(z.startsWith('/', { error: 'must start with "/"' }))),
  /** Status to answer, e.g. 503. Ignored when `networkError` is set. @default 500 */
  status: z.optional(
    z.int().check(
      z.gte(200),
      z.lte(599),
      z.refine((s) => !BODYLESS.includes(s), { error: 'must be a status with a body (not 204, 205, 304)', params: { type: 'value_error' } }),
    ),
  ),
  /** JSON body. @default {"detail": "Injected fault"} */
  body: z.optional(z.unknown()),
  /** Extra response headers. */
  headers: z.optional(z.record(z.string(), z.string())),
  /** Break the connection instead of answering. */
  networkError: z.optional(z.boolean()),
  /** How many matching requests it applies to. @default 1 */
  times: z.optional(z.int().check(z.gte(1))),
})
/** A fault to inject: the next `times` requests matching `path` get this answer instead of the service's. */
export type Fault = z.infer<typeof faultSchema>

/** A queued fault as listed: its id, its fields, and how many matching requests it still applies to. */
export interface PendingFault extends Fault {
  id: string
  times: number
}

/** Injected faults, consumed in the order they were added. */
export class FaultQueue {
  #faults: PendingFault[] = []
  #next = 1

  /**
   * Queues a fault and returns its id. Throws a `TypeError` naming the field for a bad fault.
   *
   * @example
   * service.faults.add({ path: '/v1/exchange_ohlcv', status: 503, times: 2 }) // 'fault-1'
   */
  add(fault: Fault): string {
    const result = faultSchema.safeParse(fault)
    if (!result.success) throw new TypeError(describeIssue(result.error.issues[0]!, 'Fault'))
    const id = `fault-${this.#next++}`
    this.#faults.push({ id, ...result.data, times: result.data.times ?? 1 })
    return id
  }

  /** The faults not yet used up, in the order they apply (copies). */
  list(): PendingFault[] {
    return this.#faults.map((f) => ({ ...f }))
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
