import { fstatSync, ftruncateSync, readSync } from 'node:fs'

const CHUNK = 64 * 1024
const NL = 0x0a
const QUOTE = 0x22

/**
 * Cuts an unfinished last record (a run killed mid-write) so the file ends on a record's newline.
 * Returns the file's size after the cut. Without `quoted` (JSON Lines: a record is a line) only the
 * bytes after the last newline are read. With `quoted` (CSV: a quoted field may hold line breaks)
 * the whole file is read once: a newline ends a record only after an even number of quotes, which
 * only the count from the start can tell.
 */
export function cutPartialLastLine(fd: number, quoted = false): number {
  const size = fstatSync(fd).size
  const keep = quoted ? lastRecordEnd(fd, size) : lastLineEnd(fd, size)
  if (keep < size) ftruncateSync(fd, keep)
  return keep
}

function lastLineEnd(fd: number, size: number): number {
  const buffer = Buffer.allocUnsafe(CHUNK)
  for (let end = size; end > 0; ) {
    const from = Math.max(0, end - CHUNK)
    const n = readSync(fd, buffer, 0, end - from, from)
    const at = buffer.subarray(0, n).lastIndexOf(NL)
    if (at >= 0) return from + at + 1
    end = from
  }
  // No newline at all: not even a header survived.
  return 0
}

function lastRecordEnd(fd: number, size: number): number {
  const buffer = Buffer.allocUnsafe(1 << 20)
  let keep = 0
  let inQuotes = false
  for (let from = 0; from < size; ) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - from), from)
    if (n === 0) break
    const chunk = buffer.subarray(0, n)
    // Between two quotes the parity holds: the last newline of a stretch outside quotes ends a record.
    for (let i = 0; i < n; ) {
      const q = chunk.indexOf(QUOTE, i)
      const stop = q < 0 ? n : q
      if (!inQuotes && stop > i) {
        const nl = chunk.lastIndexOf(NL, stop - 1)
        if (nl >= i) keep = from + nl + 1
      }
      if (q < 0) break
      inQuotes = !inQuotes
      i = q + 1
    }
    from += n
  }
  return keep
}

/**
 * Visits complete records from the end of the file backward (the newest first), down to byte
 * `floor`, until `visit` returns true. Reads only as far back as needed, CHUNK bytes at a time.
 * `size` must end a record (see {@link cutPartialLastLine}). With `quoted` (CSV), a newline ends a
 * record only when the quotes after it up to the end are even in number (its record's quoted
 * fields are whole).
 */
export function scanLinesBackward(fd: number, size: number, floor: number, visit: (line: string) => boolean, quoted = false): void {
  const buffer = Buffer.allocUnsafe(CHUNK)
  // Bytes of a record that started before the chunk in hand.
  let carry: Buffer = Buffer.alloc(0)
  let end = size
  while (end > floor) {
    const from = Math.max(floor, end - CHUNK)
    const n = readSync(fd, buffer, 0, end - from, from)
    const block = carry.length > 0 ? Buffer.concat([buffer.subarray(0, n), carry]) : buffer.subarray(0, n)
    // block ends with a newline (or with the carry, which does): split backward on newlines.
    let recordEnd = block.length
    if (block[recordEnd - 1] === NL) recordEnd--
    // The carry's quotes are counted again: the parity runs from the record's end.
    let odd = false
    let searchEnd = recordEnd
    while (searchEnd > 0) {
      // (a negative offset would count from the buffer's end)
      const at = block.lastIndexOf(NL, searchEnd - 1)
      if (quoted) for (let q = block.indexOf(QUOTE, at + 1); q >= 0 && q < searchEnd; q = block.indexOf(QUOTE, q + 1)) odd = !odd
      if (at < 0) break
      searchEnd = at
      if (odd) continue
      if (recordEnd > at + 1 && visit(block.toString('utf8', at + 1, recordEnd))) return
      recordEnd = at
    }
    carry = Buffer.from(block.subarray(0, recordEnd))
    end = from
  }
  if (carry.length > 0) visit(carry.toString('utf8'))
}
