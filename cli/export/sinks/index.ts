export { openSink, type SinkOptions } from './open-sink.js'
export { OutputError, type Sink, type AnyCandle } from './sink.js'
export { EXCHANGE_COLUMNS, AGGREGATED_COLUMNS } from './columns.js'
