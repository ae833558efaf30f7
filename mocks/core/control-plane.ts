import * as z from 'zod/mini'
import { parseDateTime } from '../../src/contract/index.js'
import { MAX_CLOCK_RATE, toEpochMs } from './clock.js'
import { bodyIssues } from './body-issues.js'
import { faultSchema } from './faults.js'
import { fail, invalid, json } from './respond.js'
import type { MockService } from './service.js'
import type { MockResponse } from './types.js'

/**
 * The body of `POST /_mock/clock`: set the clock at `now`, or move it by `advance_ms` (at most one
 * of the two), and/or run it at `rate` times wall speed.
 */
export const clockUpdateSchema = z
  .strictObject({
    /** An ISO 8601 datetime, read like the `start` parameter. */
    now: z.optional(
      z.string().check(z.refine((text) => parseDateTime(text).ok, { error: 'Input should be a valid datetime or date', params: { type: 'datetime_from_date_parsing' } })),
    ),
    /** Milliseconds to move the clock by; negative moves it back. */
    advance_ms: z.optional(z.number().check(z.refine(Number.isFinite, { error: 'must be a finite number' }))),
    /** Clock milliseconds per wall millisecond from now on: 1 wall speed, 60 a minute per second, 0 fixed. */
    rate: z.optional(z.number().check(z.gte(0), z.lte(MAX_CLOCK_RATE))),
  })
  .check(
    z.refine((body) => !(body.now !== undefined && body.advance_ms !== undefined), { error: 'give at most one of "now" and "advance_ms"' }),
    z.refine((body) => body.now !== undefined || body.advance_ms !== undefined || body.rate !== undefined, {
      error: 'give "now", "advance_ms" or "rate"',
    }),
  )
/** The body of `POST /_mock/clock`. */
export type ClockUpdate = z.infer<typeof clockUpdateSchema>

/** The largest body a control request may carry. */
export const MAX_CONTROL_BODY = 64 * 1024

/** A request to the control plane; `body` is the raw text of the request body. */
export interface ControlRequest {
  method: string
  path: string
  body: string
}

type Handler = (service: MockService, body: string) => Promise<MockResponse> | MockResponse

/** Parses a JSON body against `schema`; a 422 in the service's format when it does not fit. */
function parseBody<S extends z.ZodMiniType>(schema: S, text: string): { data: z.output<S> } | { error: MockResponse } {
  if (text.trim() === '') return { error: invalid([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]) }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    return { error: invalid([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: text.slice(0, 200), ctx: { error: (error as Error).message } }]) }
  }
  const result = schema.safeParse(body)
  return result.success ? { data: result.data } : { error: invalid(bodyIssues(result.error.issues, body)) }
}

const clockBody = (service: MockService) => json(200, { now: new Date(service.clock.now()).toISOString(), rate: service.clock.rate })

const ROUTES: Record<string, Record<string, Handler>> = {
  '/_mock/usage': { GET: (service) => json(200, service.usage()) },
  '/_mock/reset': { POST: async (service) => (await service.reset(), { status: 204, headers: {}, body: null }) },
  '/_mock/faults': {
    GET: (service) => json(200, service.faults.list()),
    POST: (service, text) => {
      const parsed = parseBody(faultSchema, text)
      if ('error' in parsed) return parsed.error
      return json(201, { id: service.faults.add(parsed.data) })
    },
    DELETE: (service) => (service.faults.clear(), { status: 204, headers: {}, body: null }),
  },
  '/_mock/clock': {
    GET: clockBody,
    POST: (service, text) => {
      const parsed = parseBody(clockUpdateSchema, text)
      if ('error' in parsed) return parsed.error
      const { now, advance_ms, rate } = parsed.data
      try {
        if (now !== undefined) service.clock.set(now)
        else if (advance_ms !== undefined) {
          // Checked before anything changes: a clock out of a Date's range would break every later request.
          toEpochMs(service.clock.now() + advance_ms!)
          service.clock.advance(advance_ms!)
        }
      } catch (error) {
        const field = now === undefined ? 'advance_ms' : 'now'
        return invalid([{ type: 'value_error', loc: ['body', field], msg: `Value error, ${(error as Error).message}`, input: now ?? advance_ms }])
      }
      // After the move: the clock runs at the new rate from the time just set.
      if (rate !== undefined) service.clock.setRate(rate)
      return clockBody(service)
    },
  },
}

/** True when `path` belongs to the control plane. */
export const isControlPath = (path: string): boolean => path === '/_mock' || path.startsWith('/_mock/')

/** True when a request to `path` with `method` carries a body the control plane reads. */
export const readsBody = (method: string, path: string): boolean => method === 'POST' && (path === '/_mock/faults' || path === '/_mock/clock')

/**
 * Answers a control-plane request of the standalone server: usage, reset, faults, clock. Another
 * method on a control path is 405 with `Allow`; an unknown `/_mock` path is 404.
 */
export async function handleControl(service: MockService, request: ControlRequest): Promise<MockResponse> {
  const route = ROUTES[request.path]
  if (!route) return fail(404, 'Not Found')
  const handler = route[request.method]
  if (!handler) return fail(405, 'Method Not Allowed', { allow: Object.keys(route).join(', ') })
  return handler(service, request.body)
}
