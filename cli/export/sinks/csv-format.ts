import { columnsOf, type Kind } from './columns.js'
import type { AnyCandle } from './sink.js'

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
function field(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'string' ? value : Array.isArray(value) ? JSON.stringify(value) : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The header line of a kind's CSV file, newline included. */
export function csvHeader(kind: Kind): string {
  return `${columnsOf(kind).join(',')}\n`
}

/** One page as CSV lines; `exchanges` is JSON text, a null `flag` an empty field. */
export function csvLines(kind: Kind, candles: readonly AnyCandle[]): string {
  const columns = columnsOf(kind)
  let out = ''
  for (const c of candles) {
    const row = c as unknown as Record<string, unknown>
    let line = field(row[columns[0]!])
    for (let i = 1; i < columns.length; i++) line += ',' + field(row[columns[i]!])
    out += line + '\n'
  }
  return out
}

/** Splits one CSV line into fields (quoted fields included). */
export function parseCsvLine(line: string): string[] {
  const fields: string[] = []
  let i = 0
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = ''
      i++
      for (;;) {
        const q = line.indexOf('"', i)
        if (q < 0) throw new Error('unterminated quoted field')
        value += line.slice(i, q)
        if (line[q + 1] === '"') {
          value += '"'
          i = q + 2
        } else {
          i = q + 1
          break
        }
      }
      fields.push(value)
      if (i < line.length && line[i] !== ',') throw new Error('text after a quoted field')
      i++
    } else {
      const comma = line.indexOf(',', i)
      const stop = comma < 0 ? line.length : comma
      fields.push(line.slice(i, stop))
      i = stop + 1
    }
  }
  return fields
}
