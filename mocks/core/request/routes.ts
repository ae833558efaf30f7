import { ENDPOINTS, type EndpointName, type RawQuery } from '../../../src/contract/index.js'
import * as candles from './candles.js'
import * as catalog from './catalog.js'
import type { ServiceContext } from '../state/context.js'
import { OPENAPI_PATH, openApiDocument } from './openapi-route.js'
import type { HeaderSource, MockResponse, RequestNote } from '../message/types.js'

/** What a route reads of a request. */
export interface RouteRequest {
  /** The query as received, every value of a repeated parameter kept. */
  readonly query: RawQuery
  readonly headers: HeaderSource | undefined
  /** Where the route notes what the journal records beside the answer. */
  readonly note?: RequestNote
}

/** One GET path of the service. */
export interface Route {
  handle(ctx: ServiceContext, request: RouteRequest): MockResponse | Promise<MockResponse>
  /** The endpoint the route serves, whose response schemas check its answers (`validateResponses`). */
  readonly endpoint?: EndpointName
}

const ENDPOINT_ROUTES: Record<EndpointName, Route['handle']> = {
  exchanges: (ctx) => catalog.exchanges(ctx),
  assets: (ctx) => catalog.assets(ctx),
  exchange_pairs: (ctx, r) => catalog.exchangePairs(ctx, r.query),
  aggregated_pairs: (ctx, r) => catalog.aggregatedPairs(ctx, r.query),
  exchange_ohlcv: (ctx, r) => candles.exchangeOhlcv(ctx, r.query, r.headers, r.note),
  aggregated_ohlcv: (ctx, r) => candles.aggregatedOhlcv(ctx, r.query, r.headers, r.note),
}

/** Every path the service answers, by exact path (contract: endpoints). A new route is one entry here. */
export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ...(Object.keys(ENDPOINTS) as EndpointName[]).map((endpoint): [string, Route] => [ENDPOINTS[endpoint].path, { endpoint, handle: ENDPOINT_ROUTES[endpoint] }]),
  [OPENAPI_PATH, { handle: openApiDocument }],
])
