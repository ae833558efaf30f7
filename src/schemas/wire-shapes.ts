/*
 * The shapes of the service's 200 bodies and of a page cursor, for the SDK's light checker
 * (wire-shape.ts). They restate the zod schemas in plain data, so the client bundle carries no
 * zod; test/schemas/wire-shapes.test.ts reads the same shapes off the zod schemas and fails on
 * any difference.
 */
import type { EndpointName } from '../contract/endpoints.js'
import { ASSET_TYPES, FLAGS, INTERVALS, METHODS, openEnumMessage } from './known-values.js'
import type { Shape } from './wire-shape.js'

// zod's own patterns for z.iso.date() and z.iso.datetime() (the test compares them).
const DAY =
  '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))'
const DATE = new RegExp(`^${DAY}$`)
const DATETIME = new RegExp(`^${DAY}T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z))$`)

const string: Shape = { kind: 'string' }
const number: Shape = { kind: 'number' }
const timestamp: Shape = { kind: 'format', format: 'datetime', pattern: DATETIME }
const date: Shape = { kind: 'format', format: 'date', pattern: DATE }
const openEnum = (known: readonly string[]): Shape => ({ kind: 'open-enum', message: openEnumMessage(known) })
const interval = openEnum(INTERVALS)
const flag: Shape = { kind: 'nullable', inner: openEnum(FLAGS) }
const array = (element: Shape): Shape => ({ kind: 'array', element })
const object = (fields: Record<string, Shape>): Shape => ({ kind: 'object', fields })

const ohlcv = { open: number, high: number, low: number, close: number, base_volume: number, quote_volume: number }
const pairCoverage = object({ base: string, quote: string, first_close_ts: timestamp, last_close_ts: timestamp })

/** The shape of each endpoint's 200 body (`responseSchemas`). */
export const RESPONSE_SHAPES: Readonly<Record<EndpointName, Shape>> = {
  exchanges: array(object({ name: string, creation_date: date, closing_date: { kind: 'nullable', inner: date } })),
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
