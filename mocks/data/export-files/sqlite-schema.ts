import { NotAsExpected, type SqlitePageFile } from './sqlite-page-file.js'
import { cellAt, decodeRecord, pageCells, pageNumber, readVarint, varint } from './sqlite-record.js'

/** One row of sqlite_master: a table, index, view or trigger. */
export interface SchemaEntry {
  readonly type: unknown
  readonly name: unknown
  readonly rootpage: unknown
  readonly sql: unknown
}

/** Levels of a b-tree walked at most: a real file has a handful; a cycle in a corrupt one stops here. */
export const MAX_DEPTH = 40

/**
 * The entries of sqlite_master (the table b-tree rooted on page 1, its header after the file's
 * 100 bytes) by name. A payload that spills to overflow pages, or anything out of place, throws
 * {@link NotAsExpected}.
 */
export function readSqliteSchema(file: SqlitePageFile): Map<string, SchemaEntry> {
  const out = new Map<string, SchemaEntry>()
  const seen = new Set<number>()
  // Table leaves keep at most U - 35 bytes of a payload on the page.
  const maxLocal = file.usable - 35
  const walk = (pgno: number, depth: number): void => {
    if (depth > MAX_DEPTH || seen.has(pgno)) throw new NotAsExpected()
    seen.add(pgno)
    // A copy of its own: a child's read replaces the file's window.
    const b = new Uint8Array(file.pageSize)
    file.copy(pgno, b)
    const data = new DataView(b.buffer)
    const h = pgno === 1 ? 100 : 0
    const { type, cells, pointers } = pageCells(b, 0, h, file.usable)
    for (let i = 0; i < cells; i++) {
      const off = cellAt(b, 0, pointers, cells, i, file.usable)
      if (type === 0x05) {
        if (off + 4 > file.usable) throw new NotAsExpected()
        walk(pageNumber(b, off), depth + 1)
      } else if (type === 0x0d) {
        const size = readVarint(b, off, file.usable)
        readVarint(b, varint.next, file.usable) // the rowid
        const p = varint.next
        if (size > maxLocal || p + size > file.usable) throw new NotAsExpected()
        const [type, name, , rootpage, sql] = decodeRecord(b, data, p, size)
        if (typeof name === 'string') out.set(name, { type, name, rootpage, sql })
      } else {
        throw new NotAsExpected()
      }
    }
    if (type === 0x05) walk(pageNumber(b, h + 8), depth + 1)
  }
  walk(1, 0)
  return out
}
