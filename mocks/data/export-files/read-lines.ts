import { RowProblem } from './candle-row.js'
import { LoadError } from './load-error.js'
import { nodeBuiltin } from './node-builtins.js'

const CHUNK = 1 << 20

/**
 * Calls `line(text, lineNo)` for each line of a UTF-8 file, read 1 MB at a time: the file is never
 * held whole, only the candles made of it. A trailing `\r` is cut (a file saved on Windows); the
 * empty text after the last newline is not a line. Throws on bytes that are not UTF-8.
 */
export function forEachLine(path: string, line: (text: string, lineNo: number) => void): void {
  const fs = nodeBuiltin('node:fs')
  const fd = fs.openSync(path, 'r')
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const buffer = new Uint8Array(CHUNK)
    let rest = ''
    let lineNo = 0
    const emit = (text: string) => line(text.endsWith('\r') ? text.slice(0, -1) : text, ++lineNo)
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, null)
      let text: string
      try {
        text = rest + decoder.decode(buffer.subarray(0, n), { stream: n > 0 })
      } catch {
        throw new Error(`line ${lineNo + 1}: not UTF-8 text`)
      }
      let from = 0
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
        emit(text.slice(from, nl))
        from = nl + 1
      }
      rest = text.slice(from)
      if (n === 0) break
    }
    if (rest !== '') emit(rest)
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * {@link forEachLine} for an export's file, with its failures named: a `RowProblem` thrown for a line
 * becomes a {@link LoadError} naming `label` and the line; any other failure (unreadable file, bytes
 * that are not UTF-8) one naming `label`. A `LoadError` passes as it is.
 */
export function forEachLineOf(path: string, label: string, line: (text: string, lineNo: number) => void): void {
  try {
    forEachLine(path, (text, lineNo) => {
      try {
        line(text, lineNo)
      } catch (error) {
        if (error instanceof RowProblem) throw new LoadError(`${label} line ${lineNo}: ${error.message}`, label)
        throw error
      }
    })
  } catch (error) {
    if (error instanceof LoadError) throw error
    throw new LoadError(`${label}: ${(error as Error).message}`, label)
  }
}
