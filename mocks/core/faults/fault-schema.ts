import * as z from 'zod/mini'

// 204, 205 and 304 cannot carry the JSON body every fault answer has.
const BODYLESS = [204, 205, 304]

/** The kinds of fault, as `kind` names them on the wire. */
export const FAULT_KINDS = ['status', 'network_error', 'reset', 'truncate', 'slow_body', 'hang', 'latency'] as const

/** The kinds of injected fault (see `Fault.kind`). */
export type FaultKind = (typeof FAULT_KINDS)[number]

const nonNegative = () => z.number().check(z.gte(0), z.refine(Number.isFinite, { error: 'must be a finite number' }))

/** A latency in milliseconds: a fixed number, or a seeded distribution. */
export const latencySchema = z.union([
  nonNegative(),
  z.strictObject({ dist: z.literal('uniform'), min_ms: nonNegative(), max_ms: nonNegative() }),
  z.strictObject({
    dist: z.literal('lognormal'),
    /** The median delay: half the requests wait less. */
    median_ms: nonNegative(),
    /** The spread of the log of the delay (0 is no spread). */
    sigma: nonNegative(),
  }),
])
/** A latency in milliseconds: fixed, uniform between two bounds, or lognormal around a median. */
export type Latency = z.infer<typeof latencySchema>

// Which fields each kind takes beside the triggers; anything else is refused, never ignored.
const KIND_FIELDS: Record<(typeof FAULT_KINDS)[number], readonly string[]> = {
  status: ['status', 'body', 'headers'],
  network_error: ['networkError'],
  reset: [],
  truncate: ['after_bytes'],
  slow_body: ['bytes_per_second', 'duration_ms'],
  hang: [],
  latency: ['latency_ms'],
}
const TRIGGERS = ['path', 'kind', 'times', 'after', 'probability', 'seed', 'query', 'account']

/**
 * A fault to inject. Which requests: those matching `path`, `query` and `account`, after the
 * first `after` of them, each with `probability` (seeded), for `times` requests. What happens:
 * `kind` (default `status`, or `network_error` with `networkError: true`). The same shape, snake_case,
 * is the JSON body of `POST /_mock/faults`.
 */
export const faultSchema = z
  .strictObject({
    /** Endpoint path to match, e.g. `/v1/exchange_ohlcv`; every path when omitted. */
    path: z.optional(z.string().check(z.startsWith('/', { error: 'must start with "/"' }))),
    /** What the fault does. @default 'status' ('network_error' when `networkError` is true) */
    kind: z.optional(z.enum(FAULT_KINDS)),
    /** `status`: the status to answer, e.g. 503. @default 500 */
    status: z.optional(
      z.int().check(
        z.gte(200),
        z.lte(599),
        z.refine((s) => !BODYLESS.includes(s), { error: 'must be a status with a body (not 204, 205, 304)', params: { type: 'value_error' } }),
      ),
    ),
    /** `status`: the JSON body. @default {"detail": "Injected fault"} */
    body: z.optional(z.unknown()),
    /** `status`: extra response headers. */
    headers: z.optional(z.record(z.string(), z.string())),
    /** The first form of `kind: 'network_error'`: break the connection instead of answering. */
    networkError: z.optional(z.boolean()),
    /** `truncate`: the body bytes sent before the connection is cut. */
    after_bytes: z.optional(z.int().check(z.gte(0))),
    /** `slow_body`: the body's pace. Give this or `duration_ms`. */
    bytes_per_second: z.optional(z.int().check(z.gte(1))),
    /** `slow_body`: the body is dribbled over this many milliseconds. */
    duration_ms: z.optional(z.int().check(z.gte(0), z.lte(600_000))),
    /** `latency`: the delay before the service answers (fixed, `uniform` or `lognormal`). */
    latency_ms: z.optional(latencySchema),
    /** How many requests it applies to. @default 1, or unlimited with `probability` */
    times: z.optional(z.int().check(z.gte(1))),
    /** Let this many matching requests through first. @default 0 */
    after: z.optional(z.int().check(z.gte(0))),
    /** Apply to each matching request with this probability (drawn from `seed`). */
    probability: z.optional(z.number().check(z.gte(0), z.lte(1))),
    /** Seed of `probability` and of a latency distribution: the same seed, the same draws. @default 1 */
    seed: z.optional(z.int()),
    /** Match only requests whose query has these exact values, e.g. `{"interval": "1m"}`. */
    query: z.optional(z.record(z.string(), z.string())),
    /** Match only requests whose API key acts as this account. */
    account: z.optional(z.string()),
  })
  .check(
    z.superRefine((fault, ctx) => {
      const kind = kindOf(fault)
      const allowed = new Set([...TRIGGERS, ...KIND_FIELDS[kind]])
      for (const key of Object.keys(fault)) {
        if (!allowed.has(key)) ctx.issues.push({ code: 'custom', message: `${key} does not apply to a ${kind} fault`, path: [key], input: fault[key as keyof typeof fault] })
      }
      const need = (field: string) => ctx.issues.push({ code: 'custom', message: `a ${kind} fault needs ${field}`, path: [], input: fault })
      if (kind === 'truncate' && fault.after_bytes === undefined) need('after_bytes')
      if (kind === 'latency' && fault.latency_ms === undefined) need('latency_ms')
      if (kind === 'slow_body' && (fault.bytes_per_second === undefined) === (fault.duration_ms === undefined)) need('exactly one of bytes_per_second and duration_ms')
      const latency = fault.latency_ms
      if (typeof latency === 'object' && latency.dist === 'uniform' && latency.min_ms > latency.max_ms) {
        ctx.issues.push({ code: 'custom', message: 'min_ms must not exceed max_ms', path: ['latency_ms'], input: latency })
      }
    }),
  )
/** A fault to inject (see `faultSchema`). */
export type Fault = z.infer<typeof faultSchema>

/** The kind of a fault, its default resolved. */
export const kindOf = (fault: Fault): FaultKind => fault.kind ?? (fault.networkError ? 'network_error' : 'status')
