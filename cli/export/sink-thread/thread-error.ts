import { ExportError } from '../plan/export-error.js'
import { OutputError } from '../sinks/sink.js'
import type { ThreadError } from './messages.js'

/** A sink's failure, as plain data for postMessage. */
export function toThreadError(error: unknown): ThreadError {
  const e = error instanceof Error ? error : new Error(String(error))
  const code = (e as { code?: unknown }).code
  return { name: e.name, message: e.message, output: e instanceof ExportError, ...(typeof code === 'string' ? { code } : {}) }
}

/** The failure again on the export's thread: an OutputError stays one, so the message reads the same. */
export function fromThreadError(error: ThreadError): Error {
  const rebuilt = error.output ? new OutputError(error.message) : new Error(error.message)
  if (!error.output) rebuilt.name = error.name
  if (error.code !== undefined) Object.assign(rebuilt, { code: error.code })
  return rebuilt
}
