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
