import type { MockService } from '../service/service.js'
import type { MockResponse } from '../message/types.js'

/**
 * One method of a control route: the service (root or session), the raw body text, the query
 * (without `?`), the server's closing signal, and the decoded last path segment of a route with
 * one (`/_mock/keys/KEY`), else ''.
 */
export type ControlHandler = (service: MockService, body: string, query: string, signal: AbortSignal | undefined, param: string) => Promise<MockResponse> | MockResponse

/** A control path's methods. */
export type ControlRoute = Record<string, ControlHandler>
