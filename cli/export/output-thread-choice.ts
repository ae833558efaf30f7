import type { ExportArgs } from './args.js'
import { rangeOf, type Series } from './series.js'

/**
 * Below this many candles a file output is written on the export's own thread. The output thread
 * pays for itself on long histories (writing beside the download), but starting it costs about
 * 0.1 s of CPU (a Node thread, its modules): more than writing 20,000 candles here.
 */
export const OUTPUT_THREAD_MIN_CANDLES = 20_000

/** At most how many candles the series hold within the range: their ranges' expected counts (series.ts). */
export function plannedCandles(series: readonly Series[], args: Pick<ExportArgs, 'start' | 'end'>): number {
  let total = 0
  for (const s of series) total += rangeOf(s, args, undefined).expected ?? Infinity
  return total
}

/**
 * Whether the output gets a thread of its own: a file output of a long history, a follow (which
 * runs on without end), and PostgreSQL always (its batches of pages overlap the download). Standard
 * output stays on the export's thread: its back-pressure is the reader's.
 */
export function useOutputThread(args: Pick<ExportArgs, 'out' | 'follow' | 'format' | 'start' | 'end'>, planned: readonly Series[]): boolean {
  if (args.out === '-') return false
  if (args.follow || args.format === 'postgres') return true
  return plannedCandles(planned, args) >= OUTPUT_THREAD_MIN_CANDLES
}
