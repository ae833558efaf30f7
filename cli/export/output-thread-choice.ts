import type { ExportArgs } from './args.js'
import { intervalMs } from './intervals.js'
import type { Series } from './series.js'

/**
 * Below this many candles a file output is written on the export's own thread. The output thread
 * pays for itself on long histories (writing beside the download), but starting it costs about
 * 0.1 s of CPU (a Node thread, its modules): more than writing 20,000 candles here.
 */
export const OUTPUT_THREAD_MIN_CANDLES = 20_000

/** At most how many candles the series hold within the range, from the catalog's coverage. */
export function plannedCandles(series: readonly Series[], start: number | undefined, end: number | undefined): number {
  let total = 0
  for (const s of series) {
    const step = intervalMs(s.interval)
    const from = Math.max(s.first, start ?? -Infinity)
    const to = Math.min(s.last, end ?? Infinity)
    if (step === undefined || !Number.isFinite(from) || !Number.isFinite(to)) return Infinity
    if (to >= from) total += Math.floor((to - from) / step) + 1
  }
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
  return plannedCandles(planned, args.start, args.end) >= OUTPUT_THREAD_MIN_CANDLES
}
