import * as z from 'zod/mini'
import { rawQueryOf } from '../../../src/contract/index.js'
import { toEpochMs } from '../state/clock.js'
import { bodyIssues } from './body-issues.js'
import { DATA_PARAM_ROUTES, DATA_ROUTES } from './data-routes.js'
import type { ControlHandler, ControlRoute } from './control-route.js'
import { parseJsonBody } from './json-body.js'
import { faultSchema } from '../faults/fault-queue.js'
import { clockUpdateSchema } from './control-schemas.js'
import { buildControlPlaneOpenApi } from './control-openapi.js'
import { RequestWaitTimeoutError } from '../journal/journal.js'
import { filterOf, requestsQuerySchema } from '../journal/requests-query.js'
import { fail, invalid, json } from '../message/respond.js'
import type { MockService } from '../service/service.js'
import type { MockResponse } from '../message/types.js'
import { VARIANT_ROUTE } from './variant-route.js'


export { MAX_CONTROL_BODY, MAX_DATA_BODY, bodyLimitOf } from './control-limits.js'

/** A request to the control plane; `body` is the raw text of the request body. */
export interface ControlRequest {
  method: string
  path: string
  /** The query string, without `?`. @default '' */
  query?: string
  body: string
  /** Aborted when the server closes: a waiting `GET /_mock/requests` answers at once. */
  signal?: AbortSignal
}

type Handler = ControlHandler

/** Parses a JSON body against `schema`; a 422 in the service's format when it does not fit. */
function parseBody<S extends z.ZodMiniType>(schema: S, text: string): { data: z.output<S> } | { error: MockResponse } {
  const parsed = parseJsonBody(text)
  if ('error' in parsed) return parsed
  const body = parsed.value
  const result = schema.safeParse(body)
  return result.success ? { data: result.data } : { error: invalid(bodyIssues(result.error.issues, body)) }
}

/** `GET /_mock/requests`: the journal, filtered; with `wait_for`, once that many matching requests arrived (408 with what did, on timeout). */
async function listRequests(service: MockService, query: string, signal: AbortSignal | undefined): Promise<MockResponse> {
  const raw = rawQueryOf(new URLSearchParams(query))
  const result = requestsQuerySchema.safeParse(raw)
  if (!result.success) return invalid(bodyIssues(result.error.issues, raw).map((issue) => ({ ...issue, loc: ['query', ...issue.loc.slice(1)] })))
  const filter = filterOf(result.data)
  if (result.data.wait_for === undefined) return json(200, service.requests(filter))
  try {
    const timeoutMs = result.data.timeout_ms === undefined ? 5000 : Number(result.data.timeout_ms)
    return json(200, await service.waitForRequests(filter, { count: Number(result.data.wait_for), timeoutMs, signal }))
  } catch (error) {
    if (signal?.aborted) return fail(503, 'The server is closing: the wait ended before its requests arrived')
    if (!(error instanceof RequestWaitTimeoutError)) return fail(409, (error as Error).message)
    return json(408, { detail: error.message, requests: error.requests })
  }
}

const clockBody = (service: MockService) => json(200, { now: new Date(service.clock.now()).toISOString(), rate: service.clock.rate })

// Built on first use: most test suites never ask for it.
let controlDocument: Record<string, unknown> | undefined

const NO_CONTENT: MockResponse = { status: 204, headers: {}, body: null }

const ROUTES: Record<string, ControlRoute> = {
  '/_mock/openapi.json': { GET: () => json(200, (controlDocument ??= buildControlPlaneOpenApi())) },
  '/_mock/health': { GET: (service) => json(200, { status: 'ok', sessions: service.sessions().length }) },
  '/_mock/requests': {
    GET: (service, _body, query, signal) => listRequests(service, query, signal),
    DELETE: (service) => (service.clearRequests(), NO_CONTENT),
  },
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
  '/_mock/variant': VARIANT_ROUTE,
  ...DATA_ROUTES,
}

/** A route and its last path segment, decoded, for the routes that name something (`/_mock/keys/KEY`); undefined for an unknown path. */
function findRoute(path: string): { route: ControlRoute; param: string } | undefined {
  const fixed = ROUTES[path]
  if (fixed) return { route: fixed, param: '' }
  for (const [prefix, route] of Object.entries(DATA_PARAM_ROUTES)) {
    if (!path.startsWith(prefix)) continue
    const segment = path.slice(prefix.length)
    if (segment === '' || segment.includes('/')) return undefined
    try {
      return { route, param: decodeURIComponent(segment) }
    } catch {
      return undefined
    }
  }
  return undefined
}

/** True when `path` belongs to the control plane. */
export const isControlPath = (path: string): boolean => path === '/_mock' || path.startsWith('/_mock/')

/**
 * Answers a control-plane request of the standalone server: health, requests, usage, reset, faults, clock,
 * the variant, arranged data, keys and plans. Another
 * method on a control path is 405 with `Allow`; an unknown `/_mock` path is 404.
 */
export async function handleControl(service: MockService, request: ControlRequest): Promise<MockResponse> {
  const found = findRoute(request.path)
  if (!found) return fail(404, 'Not Found')
  const handler = found.route[request.method]
  if (!handler) return fail(405, 'Method Not Allowed', { allow: Object.keys(found.route).join(', ') })
  return handler(service, request.body, request.query ?? '', request.signal, found.param)
}
