import { API_KEY_HEADER, rawQueryOf, type RawQuery } from '../../../src/contract/index.js'
import { checkResponse } from './check-response.js'
import type { ServiceContext } from '../state/context.js'
import type { AppliedFault, FaultQueue } from '../faults/fault-queue.js'
import type { RequestJournal } from '../journal/journal.js'
import { readHeader } from '../message/read-header.js'
import { reasonOf } from '../journal/rejection-reason.js'
import { fail, json } from '../message/respond.js'
import { ROUTES } from './routes.js'
import { atReading, withDate } from '../state/service-time.js'
import type { MockRequest, MockResponse, RequestNote } from '../message/types.js'
import { applyVariant, type ResolvedVariant } from '../variant/index.js'

/** How the service handles a request, besides its state. */
export interface DispatchOptions {
  readonly faults: FaultQueue
  readonly journal: RequestJournal
  /** Check every answer of an endpoint against the shared schemas. */
  readonly validateResponses: boolean
  /** How the answers fill interface.md's gaps (the reference's own: unchanged). Read per request: it changes at run time. */
  readonly variant: ResolvedVariant
}

/**
 * Answers one request: an unknown path is 404 and any method but GET 405 (contract: other-requests),
 * then an injected fault if one matches, else the route's answer, written as the service's variant
 * says (an injected fault's own answer never is). Every request is journaled, its reason read from
 * the reference's answer.
 */
export async function dispatch(ctx: ServiceContext, request: MockRequest, options: DispatchOptions): Promise<MockResponse> {
  // Read only for the journal: with it off, a request costs what it did before there was one.
  const journaled = options.journal.size > 0
  const wall = journaled ? Date.now() : 0
  const service = journaled ? ctx.clock.now() : 0
  const note: RequestNote = {}
  const { res: reference, fault, routing, records } = await answer(ctx, request, options, note)
  const res = records === undefined ? reference : applyVariant(reference, options.variant, records)
  if (journaled) {
    options.journal.record({
      method: request.method,
      url: request.url,
      account: note.account ?? null,
      status: res.status === 0 ? null : res.status,
      reason: fault ? null : reasonOf(reference, routing),
      fault: fault ? { id: fault.id, kind: fault.kind } : null,
      wall,
      service,
    })
  }
  return res
}

/**
 * The answer, the fault that applied, whether the dispatcher itself refused the request (404, 405),
 * and whether a variant rewrites it: undefined for a fault's own answer, else whether its 200 is
 * an endpoint's list of records.
 */
async function answer(
  ctx: ServiceContext,
  request: MockRequest,
  options: DispatchOptions,
  note: RequestNote,
): Promise<{ res: MockResponse; fault?: AppliedFault; routing: boolean; records: boolean | undefined }> {
  const url = parseUrl(request.url)
  const route = url && ROUTES.get(url.pathname)
  if (!url || !route) return { res: fail(404, 'Not Found'), routing: true, records: false }
  if (request.method !== 'GET') return { res: fail(405, 'Method Not Allowed', { allow: 'GET' }), routing: true, records: false }
  const query = rawQueryOf(url.searchParams)
  if (options.faults.matchesAccounts) note.account = await accountOf(ctx, request)
  const fault = options.faults.take({ path: url.pathname, query, account: note.account })
  // Latency, truncate and slow_body deliver the service's own answer; the other kinds replace it.
  const delivers = !fault || fault.kind === 'latency' || fault.kind === 'truncate' || fault.kind === 'slow_body'
  const res = delivers ? await routeAnswer(ctx, route, request, query, note, fault, options) : faultAnswer(fault)
  return { res, fault, routing: false, records: delivers ? route.endpoint !== undefined : undefined }
}

async function routeAnswer(
  ctx: ServiceContext,
  route: NonNullable<ReturnType<typeof ROUTES.get>>,
  request: MockRequest,
  query: RawQuery,
  note: RequestNote,
  fault: AppliedFault | undefined,
  options: DispatchOptions,
): Promise<MockResponse> {
  if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
  // One reading of the clock decides the answer and is its Date header (service-time.ts).
  const at = ctx.clock.now()
  const res = withDate(await route.handle(atReading(ctx, at), { query, headers: request.headers, note }), at)
  if (options.validateResponses && route.endpoint) checkResponse(route.endpoint, res)
  if (fault?.kind === 'truncate') return { ...res, delivery: { kind: 'truncate', afterBytes: fault.fault.after_bytes! } }
  if (fault?.kind === 'slow_body') {
    const { bytes_per_second, duration_ms } = fault.fault
    return { ...res, delivery: { kind: 'slow_body', ...(bytes_per_second !== undefined ? { bytesPerSecond: bytes_per_second } : { durationMs: duration_ms! }) } }
  }
  return res
}

/** The answer of a fault that replaces the service's (injected faults are wrong on purpose: never checked). */
function faultAnswer(fault: AppliedFault): MockResponse {
  const { kind, fault: f } = fault
  if (kind === 'status') return json(f.status ?? 500, f.body ?? { detail: 'Injected fault' }, f.headers)
  const broken: MockResponse = { status: 0, headers: {}, body: null, delivery: { kind: kind as 'network_error' | 'reset' | 'hang' } }
  if (kind === 'network_error') broken.networkError = true
  return broken
}

async function accountOf(ctx: ServiceContext, request: MockRequest): Promise<string | undefined> {
  const key = readHeader(request.headers, API_KEY_HEADER)?.trim()
  return key ? ctx.keys.accountOf(key) : undefined
}

function parseUrl(url: string): URL | undefined {
  try {
    return url.startsWith('/') ? new URL(`http://service.invalid${url}`) : new URL(url)
  } catch {
    return undefined
  }
}
