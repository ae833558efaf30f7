export { openThreadedSink } from './open-threaded-sink.js'
