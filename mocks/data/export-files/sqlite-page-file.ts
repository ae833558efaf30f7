import { nodeBuiltin } from './node-builtins.js'

/** What a read of the file meets that the direct reader does not take: the caller steps aside to node:sqlite. */
export class NotAsExpected extends Error {}

const MAGIC = 'SQLite format 3\0'
/** Bytes read at once: the leaves of a table written in key order lie mostly in file order. */
const WINDOW_BYTES = 1 << 20

/**
 * The pages of a SQLite database file, read with plain reads (no node:sqlite), for the direct
 * reader of an export's table (read-sqlite-btree.ts). `open` checks the 100-byte header and
 * gives undefined for anything it does not take as it is: another magic, an odd page size or
 * payload fractions, a text encoding other than UTF-8, a read version past 2, or a `-wal` (not
 * empty) or `-journal` file beside it (their changes are not in the file itself).
 * Pages are read a window at a time; {@link view} answers from the window, so a page's bytes stay
 * valid only until the next view.
 */
export class SqlitePageFile {
  /** The last window read, and the DataView over it (big-endian numbers). */
  readonly window: Uint8Array
  readonly windowData: DataView
  private first = 0
  private count = 0
  private readonly windowPages: number

  private constructor(
    private readonly fd: number,
    readonly pageSize: number,
    /** The page size less the bytes reserved at each page's end. */
    readonly usable: number,
    readonly pageCount: number,
  ) {
    this.windowPages = Math.max(1, Math.min(pageCount, Math.floor(WINDOW_BYTES / pageSize)))
    this.window = new Uint8Array(this.windowPages * pageSize)
    this.windowData = new DataView(this.window.buffer)
  }

  static open(path: string): SqlitePageFile | undefined {
    const fs = nodeBuiltin('node:fs')
    const wal = fs.statSync(`${path}-wal`, { throwIfNoEntry: false })
    if ((wal !== undefined && wal.size > 0) || fs.statSync(`${path}-journal`, { throwIfNoEntry: false }) !== undefined) return undefined
    const fd = fs.openSync(path, 'r')
    try {
      const size = fs.fstatSync(fd).size
      const head = new Uint8Array(100)
      if (size < 512 || fs.readSync(fd, head, 0, 100, 0) !== 100) throw new NotAsExpected()
      for (let i = 0; i < MAGIC.length; i++) if (head[i] !== MAGIC.charCodeAt(i)) throw new NotAsExpected()
      const raw = (head[16]! << 8) | head[17]!
      const pageSize = raw === 1 ? 65536 : raw
      const reserved = head[20]!
      const usable = pageSize - reserved
      const encoding = ((head[56]! << 24) | (head[57]! << 16) | (head[58]! << 8) | head[59]!) >>> 0
      const powerOfTwo = pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0
      // Payload fractions 64/32/32 are the only ones SQLite writes; read version 1 (rollback) or 2 (WAL).
      if (!powerOfTwo || usable < 480 || head[19]! < 1 || head[19]! > 2 || head[21] !== 64 || head[22] !== 32 || head[23] !== 32 || encoding !== 1) throw new NotAsExpected()
      const pageCount = Math.floor(size / pageSize)
      return new SqlitePageFile(fd, pageSize, usable, pageCount)
    } catch (error) {
      fs.closeSync(fd)
      if (error instanceof NotAsExpected) return undefined
      throw error
    }
  }

  /** Where page `pgno` starts in {@link window} (read now when it is not there); valid until the next call. */
  view(pgno: number): number {
    if (!(pgno >= 1 && pgno <= this.pageCount)) throw new NotAsExpected()
    const i = pgno - this.first
    if (i >= 0 && i < this.count) return i * this.pageSize
    const n = Math.min(this.windowPages, this.pageCount - pgno + 1)
    this.readInto(this.window, 0, pgno, n)
    this.first = pgno
    this.count = n
    return 0
  }

  /** Page `pgno` copied into `into` (at 0), the window left as it is. */
  copy(pgno: number, into: Uint8Array): void {
    if (!(pgno >= 1 && pgno <= this.pageCount)) throw new NotAsExpected()
    const i = pgno - this.first
    if (i >= 0 && i < this.count) into.set(this.window.subarray(i * this.pageSize, (i + 1) * this.pageSize))
    else this.readInto(into, 0, pgno, 1)
  }

  close(): void {
    nodeBuiltin('node:fs').closeSync(this.fd)
  }

  private readInto(into: Uint8Array, at: number, pgno: number, pages: number): void {
    const bytes = pages * this.pageSize
    let done = 0
    while (done < bytes) {
      const got = nodeBuiltin('node:fs').readSync(this.fd, into, at + done, bytes - done, (pgno - 1) * this.pageSize + done)
      if (got <= 0) throw new NotAsExpected()
      done += got
    }
  }
}
