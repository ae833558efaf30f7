import type { Series } from '../plan/series.js'
import type { AnyCandle, Sink } from '../sinks/index.js'
import { parseTimestamp } from '../../../src/contract/close-time.js'

/**
 * A sink that reports each page once written: its series, candle count and newest close (epoch
 * ms). Not async and keeping only the count and the close: a suspended async write would hold the
 * page's candles while it waits (see DEVELOPERS.md, the runner's write).
 */
export function countedSink(sink: Sink, onWritten: (series: Series, candles: number, newestClose: number) => void): Sink {
  return {
    ...(sink.pagesInFlight === undefined ? {} : { pagesInFlight: sink.pagesInFlight }),
    lastStored: (series) => sink.lastStored(series),
    write(series, candles) {
      const count = candles.length
      if (count === 0) return sink.write(series, candles)
      const newest = parseTimestamp(candles[count - 1]!.close_ts)
      return Promise.resolve(sink.write(series, candles)).then(() => onWritten(series, count, newest))
    },
    close: () => sink.close(),
  }
}
