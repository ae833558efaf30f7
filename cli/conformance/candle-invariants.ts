/**
 * What every candle a deployment serves keeps, whatever its data (docs/contract.md#candle-data).
 * Each check reads one candle and returns what was expected when the candle breaks it, else
 * undefined. A field of the wrong type is left alone: the `openapi` rule reports that.
 */
import { instantOf } from './instant.js'

/** The grid step of each interval the contract defines; another interval has no known grid. */
export const GRID_MS: Readonly<Record<string, number>> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 }

type Candle = Record<string, unknown>

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const stamp = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')

/** `close_ts` on the grid of `interval`: a whole number of steps since 1970-01-01T00:00:00Z. */
export function offGrid(candle: Candle, interval: string): string | undefined {
  const step = GRID_MS[interval]
  const t = instantOf(candle.close_ts)
  if (step === undefined || Number.isNaN(t) || t % step === 0) return undefined
  const below = Math.floor(t / step) * step
  return `close_ts on the ${interval} grid (the interval's end boundary), e.g. ${stamp(below)} or ${stamp(below + step)}`
}

/** `low <= open <= high` and `low <= close <= high`, hence `low <= high`. */
export function ohlcOutOfOrder(candle: Candle): string | undefined {
  const { open, high, low, close } = candle
  if (!finite(open) || !finite(high) || !finite(low) || !finite(close)) return undefined
  if (low <= open && open <= high && low <= close && close <= high) return undefined
  return `low <= open <= high and low <= close <= high (low ${low}, open ${open}, close ${close}, high ${high})`
}

/** `base_volume >= 0` and `quote_volume >= 0`. */
export function negativeVolume(candle: Candle): string | undefined {
  const bad = (['base_volume', 'quote_volume'] as const).filter((name) => finite(candle[name]) && (candle[name] as number) < 0)
  return bad.length === 0 ? undefined : `${bad.map((name) => `${name} >= 0`).join(' and ')} (got ${bad.map((name) => `${name} ${candle[name]}`).join(', ')})`
}

/** An aggregated candle's `exchanges` as a list of strings, or undefined (a wrong type is the `openapi` rule's). */
function exchangesOf(candle: Candle): string[] | undefined {
  const list = candle.exchanges
  return Array.isArray(list) && list.every((e) => typeof e === 'string') ? (list as string[]) : undefined
}

/** An aggregated candle's `exchanges` as the reference writes them (D9): at least one, ascending without repeats. */
export function badExchanges(candle: Candle): string | undefined {
  const names = exchangesOf(candle)
  if (names === undefined) return undefined
  if (names.length === 0) return 'at least one contributing exchange (no contributors: no aggregated candle)'
  if (!names.every((e, i) => i === 0 || names[i - 1]! < e)) return `the contributors ascending, each once: ${JSON.stringify([...new Set(names)].sort())}`
  return undefined
}

/** An aggregated candle's `exchanges` are exchanges (interface.md): each one `/v1/exchanges` lists (`known`). */
export function unknownContributors(candle: Candle, known: ReadonlySet<string>): string | undefined {
  const unknown = (exchangesOf(candle) ?? []).filter((e) => !known.has(e))
  return unknown.length === 0 ? undefined : `exchanges of /v1/exchanges only (${[...known].join(', ')}); not listed: ${unknown.join(', ')}`
}
