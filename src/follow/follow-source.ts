import type { CandleEndpointName } from '../contract/index.js'
import type { WalkSource } from '../pagination/walks.js'
import type { Exchange } from '../schemas/index.js'

/** One answer of a follow's request: the candles, and when the service said it was (its `Date` header). */
export interface LiveAnswer<C> {
  candles: C[]
  date: string | null
  /** Local epoch ms before the request went out (rate-limit wait included) and after its answer. */
  sent: number
  received: number
}

/** What a follow needs of the client: its requests, through the client's transport and limiter. */
export interface FollowSource<C> {
  /** One request of the moving edge. */
  fetchLive(endpoint: CandleEndpointName, query: Record<string, string>, signal: AbortSignal): Promise<LiveAnswer<C>>
  /** The walks of the catch-up from `start`; `observe` learns from each answer's `Date` header. */
  walk(endpoint: CandleEndpointName, observe: (date: string | null, sent: number, received: number) => void): WalkSource<C>
  /** The public exchange list (never counted), for closing dates. */
  exchanges(signal: AbortSignal): Promise<Exchange[]>
  /**
   * A request for its `Date` header alone, at a moment the follow chooses (its estimate of the
   * service's clock): a public catalog call, never counted, never through the limiter.
   */
  probe(signal: AbortSignal): Promise<Omit<LiveAnswer<never>, 'candles'>>
}
