/**
 * The sink's own thread (see open-threaded-sink.ts): opens the output, then hands it the pages it is
 * sent, in order, answering each once its write has resolved.
 */
import { Writable } from 'node:stream'
import { parentPort, workerData } from 'node:worker_threads'
import { openSink, type Sink } from '../sinks/index.js'
import { plannedSeriesKey } from '../sinks/sink.js'
import type { FromSinkThread, SinkThreadData, ToSinkThread } from './messages.js'
import { decodePage } from './page-columns.js'
import { toThreadError } from './thread-error.js'

const data = workerData as SinkThreadData
const port = parentPort!
const post = (message: FromSinkThread) => port.postMessage(message)

// Only file and database outputs come here; stdout stays on the export's thread.
const noStdout = new Writable({ write: (_chunk, _encoding, done) => done(new Error('the sink thread has no stdout')) })

const sink: Sink | undefined = await openSink(data.out, data.format, data.kind, data.planned, noStdout, {
  pgSchema: data.pgSchema,
  partRows: data.partRows,
  env: data.env as NodeJS.ProcessEnv,
  note: (text) => post({ type: 'note', text }),
}).then(
  (opened) => {
    post({ type: 'opened', last: data.planned.map((s) => [plannedSeriesKey(s), opened.lastStored(s)]), pagesInFlight: opened.pagesInFlight ?? 1 })
    return opened
  },
  (error: unknown) => {
    post({ type: 'failed', id: undefined, error: toThreadError(error) })
    port.close()
    return undefined
  },
)

// Pages are handed to the sink in the order sent. A sink that gathers pages into batches
// (pagesInFlight > 1) gets each as it comes; any other gets the next once the last has resolved.
// After a failed page no later page is written: the output never holds a page after a missing one.
const concurrent = (sink?.pagesInFlight ?? 1) > 1
let queue = Promise.resolve()
let failed: unknown
const write = async (id: number, message: Extract<ToSinkThread, { type: 'write' }>) => {
  try {
    if (failed !== undefined) throw failed
    await sink!.write(message.series, decodePage(data.kind, message.page))
    post({ type: 'written', id })
  } catch (error) {
    failed ??= error
    post({ type: 'failed', id, error: toThreadError(error) })
  }
}
const close = async () => {
  try {
    await sink!.close()
    post({ type: 'closed' })
  } catch (error) {
    post({ type: 'failed', id: undefined, error: toThreadError(error) })
  }
  port.close()
}
if (sink !== undefined) {
  port.on('message', (message: ToSinkThread) => {
    if (message.type === 'write' && concurrent) {
      const written = write(message.id, message)
      queue = queue.then(() => written)
    } else queue = queue.then(() => (message.type === 'write' ? write(message.id, message) : close()))
  })
}
