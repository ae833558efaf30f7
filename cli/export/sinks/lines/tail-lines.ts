import { fstatSync, ftruncateSync, readSync } from 'node:fs'

const CHUNK = 64 * 1024
const NL = 0x0a

/**
 * Cuts an unfinished last line (a run killed mid-write) so the file ends on a newline; only the
 * bytes after the last newline are read. Returns the file's size after the cut.
 */
export function cutPartialLastLine(fd: number): number {
  const size = fstatSync(fd).size
  const buffer = Buffer.allocUnsafe(CHUNK)
  let end = size
  while (end > 0) {
    const from = Math.max(0, end - CHUNK)
    const n = readSync(fd, buffer, 0, end - from, from)
    const at = buffer.subarray(0, n).lastIndexOf(NL)
    if (at >= 0) {
      const keep = from + at + 1
      if (keep < size) ftruncateSync(fd, keep)
      return keep
    }
    end = from
  }
  // No newline at all: not even a header survived.
  if (size > 0) ftruncateSync(fd, 0)
  return 0
}

/**
 * Visits complete lines from the end of the file backward (the newest first), down to byte
 * `floor`, until `visit` returns true. Reads only as far back as needed, CHUNK bytes at a time.
 * `size` must end on a newline (see {@link cutPartialLastLine}).
 */
export function scanLinesBackward(fd: number, size: number, floor: number, visit: (line: string) => boolean): void {
  const buffer = Buffer.allocUnsafe(CHUNK)
  // Bytes of a line that started before the chunk in hand.
  let carry: Buffer = Buffer.alloc(0)
  let end = size
  while (end > floor) {
    const from = Math.max(floor, end - CHUNK)
    const n = readSync(fd, buffer, 0, end - from, from)
    const block = carry.length > 0 ? Buffer.concat([buffer.subarray(0, n), carry]) : buffer.subarray(0, n)
    // block ends with a newline (or with the carry, which does): split backward on newlines.
    let lineEnd = block.length
    if (block[lineEnd - 1] === NL) lineEnd--
    while (lineEnd > 0) {
      // (a negative offset would count from the buffer's end)
      const at = block.lastIndexOf(NL, lineEnd - 1)
      if (at < 0) break
      if (lineEnd > at + 1 && visit(block.toString('utf8', at + 1, lineEnd))) return
      lineEnd = at
    }
    carry = Buffer.from(block.subarray(0, lineEnd))
    end = from
  }
  if (carry.length > 0) visit(carry.toString('utf8'))
}
