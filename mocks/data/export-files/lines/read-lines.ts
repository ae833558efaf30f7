import { RowProblem } from '../rows/candle-row.js'
import { LoadError } from '../load-error.js'
import { nodeBuiltin } from '../node-builtins.js'

const CHUNK = 1 << 20

/**
 * Calls `line(text, lineNo)` for each line of a UTF-8 file, read 1 MB at a time: the file is never
 * held whole, only the candles made of it. A trailing `\r` is cut (a file saved on Windows); the
 * empty text after the last newline is not a line. Throws on bytes that are not UTF-8.
 * `quoted` (CSV): a line break inside a quoted field does not end the record, which is passed
 * whole, breaks included; `lineNo` is then the line the record starts on.
 */
export function forEachLine(path: string, line: (text: string, lineNo: number) => void, quoted = false): void {
  const fs = nodeBuiltin('node:fs')
  const fd = fs.openSync(path, 'r')
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const buffer = new Uint8Array(CHUNK)
    let rest = ''
    let lineNo = 1
    const emit = (text: string, breaks: number) => {
      line(text.endsWith('\r') ? text.slice(0, -1) : text, lineNo)
      lineNo += breaks
    }
    // The state of the unfinished record carried in `rest`: where its scan goes on (its newlines and
    // quotes before that are counted), the lines it spans so far, and whether a quoted field is open.
    let scanned = 0
    let breaks = 1
    let inQuotes = false
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, null)
      let text: string
      try {
        text = rest + decoder.decode(buffer.subarray(0, n), { stream: n > 0 })
      } catch {
        throw new Error(`line ${lineNo}: not UTF-8 text`)
      }
      let from = 0
      let search = scanned
      let quote = quoted ? text.indexOf('"', search) : -1
      for (let nl = text.indexOf('\n', search); nl >= 0; nl = text.indexOf('\n', search)) {
        // An odd number of quotes since the record began: the newline lies inside a quoted field.
        for (; quote >= 0 && quote < nl; quote = text.indexOf('"', quote + 1)) inQuotes = !inQuotes
        search = nl + 1
        if (inQuotes) {
          breaks++
          continue
        }
        emit(text.slice(from, nl), breaks)
        from = search
        breaks = 1
      }
      rest = text.slice(from)
      scanned = search - from
      if (n === 0) break
    }
    if (rest !== '') emit(rest, 1)
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * {@link forEachLine} for an export's file, with its failures named: a `RowProblem` thrown for a line
 * becomes a {@link LoadError} naming `label` and the line; any other failure (unreadable file, bytes
 * that are not UTF-8) one naming `label`. A `LoadError` passes as it is.
 */
export function forEachLineOf(path: string, label: string, line: (text: string, lineNo: number) => void, quoted = false): void {
  try {
    forEachLine(path, (text, lineNo) => {
      try {
        line(text, lineNo)
      } catch (error) {
        if (error instanceof RowProblem) throw new LoadError(`${label} line ${lineNo}: ${error.message}`, label)
        throw error
      }
    }, quoted)
  } catch (error) {
    if (error instanceof LoadError) throw error
    throw new LoadError(`${label}: ${(error as Error).message}`, label)
  }
}
