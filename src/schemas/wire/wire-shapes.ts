/*
 * The shapes of the service's 200 bodies and of a page cursor, for the SDK's light checker
 * (wire-shape.ts). They restate the zod schemas in plain data, so the client bundle carries no
 * zod; test/schemas/wire-shapes.test.ts reads the same shapes off the zod schemas and fails on
 * any difference.
 */
import type { EndpointName } from '../../contract/endpoints.js'
import { ASSET_TYPES, FLAGS, INTERVALS, METHODS, openEnumMessage } from '../values/known-values.js'
import type { Shape } from './wire-shape.js'

// zod's own pattern for z.iso.date() (the test compares them).
const DATE =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$/

const string: Shape = { kind: 'string' }
const number: Shape = { kind: 'number' }
// Any ISO 8601 UTC form, coming out canonical (timestampSchema, D13).
const timestamp: Shape = { kind: 'instant' }
const date: Shape = { kind: 'format', format: 'date', pattern: DATE }
const openEnum = (known: readonly string[]): Shape => ({ kind: 'open-enum', message: openEnumMessage(known) })
const interval = openEnum(INTERVALS)
// null when left out (D13)
const nullDefault = (inner: Shape): Shape => ({ kind: 'null-default', inner: { kind: 'nullable', inner } })
const flag = nullDefault(openEnum(FLAGS))
const array = (element: Shape): Shape => ({ kind: 'array', element })
const object = (fields: Record<string, Shape>): Shape => ({ kind: 'object', fields })

const ohlcv = { open: number, high: number, low: number, close: number, base_volume: number, quote_volume: number }
const pairCoverage = object({ base: string, quote: string, first_close_ts: timestamp, last_close_ts: timestamp })

/** The shape of each endpoint's 200 body (`responseSchemas`). */
export const RESPONSE_SHAPES: Readonly<Record<EndpointName, Shape>> = {
  exchanges: array(object({ name: string, creation_date: date, closing_date: nullDefault(date) })),
  assets: array(object({ name: string, asset_type: openEnum(ASSET_TYPES), ticker: string })),
  exchange_pairs: array(pairCoverage),
  aggregated_pairs: array(pairCoverage),
  exchange_ohlcv: array(
    object({ exchange: string, interval, base: string, quote: string, close_ts: timestamp, ...ohlcv, source_provider: string, source_channel: string, flag }),
  ),
  aggregated_ohlcv: array(
    object({ method: openEnum(METHODS), interval, base: string, quote: string, close_ts: timestamp, ...ohlcv, exchanges: array(string), flag }),
  ),
}

/** The shape of a page cursor (`pageCursorSchema`). */
export const PAGE_CURSOR_SHAPE: Shape = object({
  version: { kind: 'one-of', values: [1] },
  endpoint: { kind: 'one-of', values: ['exchange_ohlcv', 'aggregated_ohlcv'] },
  direction: { kind: 'one-of', values: ['forward', 'backward'] },
  query: { kind: 'record', value: string },
})
