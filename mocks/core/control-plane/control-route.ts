import type { ExchangeColumns } from '../../data/exchange-columns.js'
import type { MockService } from '../service/service.js'
import type { MockResponse } from '../message/types.js'

/**
 * A `POST /_mock/data/candles` body the server read as bytes: the batch as columns when every row
 * was plain (candle-batch-scanner.ts read it as it arrived), and its text, decoded on demand.
 */
export interface ScannedCandles {
  readonly runs: readonly ExchangeColumns[] | undefined
  text(): string
}

/**
 * One method of a control route: the service (root or session), the raw body text, the query
 * (without `?`), the server's closing signal, the decoded last path segment of a route with
 * one (`/_mock/keys/KEY`), else '', and the scanned body of `POST /_mock/data/candles` when the
 * server read it so (`body` is then '').
 */
export type ControlHandler = (service: MockService, body: string, query: string, signal: AbortSignal | undefined, param: string, scanned?: ScannedCandles) => Promise<MockResponse> | MockResponse

/** A control path's methods. */
export type ControlRoute = Record<string, ControlHandler>
