import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite'
import { PRICE_COLUMNS, columnsOf, type Kind } from '../columns.js'
import type { AnyCandle } from '../sink.js'

// Rows per statement, largest first: a full page takes 4 statements, a short one a few more.
const SIZES = [250, 50, 10, 1]
// Always bound per row: the close time and the prices and volumes differ from row to row.
const PER_ROW = new Set<string>(['close_ts', ...PRICE_COLUMNS])

interface Statement {
  statement: StatementSync
  args: SQLInputValue[]
  fill(rows: readonly AnyCandle[], from: number, args: SQLInputValue[]): void
}

/**
 * Inserts candles into a sink's table, `ON CONFLICT DO NOTHING`, up to 250 rows a statement.
 * A field holding the same value in every row of a statement (a series' exchange, interval and
 * pair; the source of most pages; a run of null flags) is bound once, in the SELECT list, not
 * once per row: 7 or 8 values a row instead of 13 or 14. Binding dominates the CPU of a page
 * (1.2 against 1.8 ms of CPU per 1000 candles over 300 pages, measured 2026-11-25). The statement of
 * each shape (which fields vary, how many rows) is prepared once and kept.
 */
export class SqliteRows {
  private readonly names: readonly string[]
  private readonly shared: readonly string[]
  private readonly shapeOf: (rows: readonly AnyCandle[], from: number, n: number) => number
  private readonly statements = new Map<number, Statement>()

  constructor(
    private readonly db: DatabaseSync,
    private readonly table: string,
    kind: Kind,
  ) {
    this.names = columnsOf(kind)
    this.shared = this.names.filter((n) => !PER_ROW.has(n))
    const same = this.shared.map((f, j) => (f === 'exchanges' ? `sameList(r.exchanges, r0.exchanges)` : `r[${JSON.stringify(f)}] === r0[${JSON.stringify(f)}]`) + ` || (mask |= ${1 << j})`)
    // Generated, so each field is read by its name (see page-columns.ts: a loop over names ran 5x slower).
    this.shapeOf = new Function(
      'sameList',
      `return function (rows, from, n) {
        const r0 = rows[from]
        let mask = 0
        for (let i = from + 1; i < from + n; i++) { const r = rows[i]; ${same.join('; ')} }
        return mask
      }`,
    )(sameList) as SqliteRows['shapeOf']
    // Prepared now: a table of other columns is refused at open, not at the first page.
    this.statementOf(0, 1)
  }

  /** Inserts the candles; the caller holds the transaction. */
  insert(rows: readonly AnyCandle[]): void {
    let from = 0
    for (const size of SIZES) {
      for (; from + size <= rows.length; from += size) {
        const { statement, args, fill } = this.statementOf(size === 1 ? 0 : this.shapeOf(rows, from, size), size)
        fill(rows, from, args)
        statement.run(...args)
      }
    }
  }

  private statementOf(mask: number, size: number): Statement {
    const key = mask * 1024 + size
    let found = this.statements.get(key)
    if (found === undefined) {
      found = this.compile(mask, size)
      this.statements.set(key, found)
    }
    return found
  }

  private compile(mask: number, size: number): Statement {
    const varies = (name: string) => PER_ROW.has(name) || (mask & (1 << this.shared.indexOf(name))) !== 0
    const once = this.names.filter((n) => !varies(n))
    const perRow = this.names.filter(varies)
    const valueOf = (row: string, name: string) => (name === 'exchanges' ? `JSON.stringify(${row}.exchanges)` : `${row}[${JSON.stringify(name)}]`)
    const select = this.names.map((n) => (varies(n) ? `column${perRow.indexOf(n) + 1}` : '?'))
    const values = Array.from({ length: size }, () => `(${perRow.map(() => '?').join(', ')})`).join(', ')
    // `WHERE true`: without it SQLite would read ON CONFLICT as the ON of a join.
    const sql = `INSERT INTO ${this.table} (${this.names.join(', ')}) SELECT ${select.join(', ')} FROM (VALUES ${values}) WHERE true ON CONFLICT DO NOTHING`
    // Bound in the order the ?s appear: the SELECT list's first, then the rows'.
    const fill = new Function(
      `return function (rows, from, args) {
        const r0 = rows[from]
        ${once.map((n, k) => `args[${k}] = ${valueOf('r0', n)}`).join('\n')}
        for (let i = 0, at = ${once.length}; i < ${size}; i++, at += ${perRow.length}) {
          const r = rows[from + i]
          ${perRow.map((n, k) => `args[at + ${k}] = ${valueOf('r', n)}`).join('\n')}
        }
      }`,
    )() as Statement['fill']
    return { statement: this.db.prepare(sql), args: new Array(once.length + size * perRow.length), fill }
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
