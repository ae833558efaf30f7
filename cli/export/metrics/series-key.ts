import type { Series } from '../plan/series.js'

/**
 * A series as metrics label it: `exchange/BASE/QUOTE/interval`, or `aggregated/BASE/QUOTE/interval`.
 * Only names from the catalog: never a key, a URL or a password.
 */
export function seriesKey(s: Pick<Series, 'kind' | 'source' | 'interval' | 'base' | 'quote'>): string {
  return `${s.kind === 'exchange' ? s.source : 'aggregated'}/${s.base}/${s.quote}/${s.interval}`
}
