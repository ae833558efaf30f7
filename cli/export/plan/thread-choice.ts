import { INTERVAL_MS, isKnownInterval } from '../../../src/schemas/values/known-values.js'
import type { ExportArgs } from '../flags/args.js'
import { candlesBetween, rangeOf, type Series } from './series.js'

/**
 * Below this many candles an export runs without threads of its own. The export thread (capped
 * heap, run-in-worker.ts) keeps the memory of a long history flat, and the output thread writes
 * beside the download, but each costs CPU to start (a Node thread, its modules): a 48-candle export
 * into SQLite took 0.58 s of CPU with both threads and 0.22 s without (2026-11-27), more than
 * writing 20,000 candles.
 */
export const SMALL_EXPORT_CANDLES = 20_000

/** At most how many candles the series hold within the range: their ranges' expected counts (series.ts). */
export function plannedCandles(series: readonly Series[], args: Pick<ExportArgs, 'start' | 'end'>): number {
  let total = 0
  for (const s of series) total += rangeOf(s, args, undefined).expected ?? Infinity
  return total
}

/**
 * Whether the output gets a thread of its own: a file or PostgreSQL output of a long history (its
 * writes overlap the download), and a follow (which runs on without end). Standard output stays on
 * the export's thread: its back-pressure is the reader's.
 */
export function useOutputThread(args: Pick<ExportArgs, 'out' | 'follow' | 'start' | 'end'>, planned: readonly Series[]): boolean {
  if (args.out === '-') return false
  if (args.follow) return true
  return plannedCandles(planned, args) >= SMALL_EXPORT_CANDLES
}

/**
 * Whether the export runs on a thread of its own, decided from the arguments alone (before the
 * catalog is read): unless it is surely short. Short means a one-off export of pairs named with
 * `--pair` from a `--start`, whose range holds fewer than {@link SMALL_EXPORT_CANDLES} candles at the
 * interval downloaded, whatever the catalog says. A follow, `--all-pairs`, no `--start`, a
 * metrics server or an interval of unknown length take the thread. A short export into PostgreSQL
 * took 0.27 s of CPU this way against 0.70 s with both threads (8,700 candles, 2026-11-27).
 *
 * @param now the end of a range without `--end` (this machine's clock: a service whose clock is
 *   ahead of it makes such an export longer than planned here, never different)
 */
export function useExportThread(args: ExportArgs, now: number): boolean {
  if (args.follow || args.allPairs || args.metricsPort !== undefined || args.start === undefined) return true
  const step = isKnownInterval(args.interval) ? INTERVAL_MS[args.interval] : undefined
  if (step === undefined) return true
  return args.pairs.length * candlesBetween(args.start, args.end ?? now, step) >= SMALL_EXPORT_CANDLES
}
