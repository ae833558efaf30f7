import { DEFAULT_METHOD, isKnownInterval, type KnownInterval } from '../../../src/schemas/index.js'
import type { ServiceContext } from '../state/context.js'
import { fail } from '../message/respond.js'
import { METHOD_IMPLEMENTATIONS } from '../../data/aggregation/method-registry.js'
import type { MockResponse } from '../message/types.js'

/*
 * Resolution (contract: resolution): an exchange, interval or method that is not a known one answers 404,
 * matched exactly, on every endpoint that takes it.
 */

export function resolveExchange(ctx: ServiceContext, exchange: string): MockResponse | undefined {
  return ctx.index.store.exchanges.some((e) => e.name === exchange) ? undefined : fail(404, `Unknown exchange '${exchange}'`)
}

export function resolveInterval(interval: string): KnownInterval | MockResponse {
  return isKnownInterval(interval) ? interval : fail(404, `Unknown interval '${interval}'`)
}

export function resolveMethod(method: string | undefined): string | MockResponse {
  const name = method ?? DEFAULT_METHOD
  return Object.hasOwn(METHOD_IMPLEMENTATIONS, name) ? name : fail(404, `Unknown method '${name}'`)
}

/** Narrows a resolution result. */
export const isResponse = (x: unknown): x is MockResponse => typeof x === 'object' && x !== null && 'status' in x
