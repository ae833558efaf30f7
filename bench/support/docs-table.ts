/**
 * `npm run bench -- --docs` writes the summary table into the guides, between the markers
 * `<!-- bench-table:start -->` and `<!-- bench-table:end -->`: the whole table into docs/paging.md,
 * the server's sections (1 and 2) into docs/reference-service.md. A partial run (`-- 2 --docs`)
 * replaces only the rows of the sections it ran.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { markdownTable, type TableRow } from './table.js'

const START = '<!-- bench-table:start -->'
const END = '<!-- bench-table:end -->'

const TARGETS: { file: string; sections: (id: string) => boolean }[] = [
  { file: 'docs/paging.md', sections: () => true },
  { file: 'docs/reference-service.md', sections: (id) => id === '1' || id === '2' },
]

/** Rows already in a table between the markers, by section, in order. */
function rowsIn(block: string): TableRow[] {
  return block
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| section |'))
    .map((line) => {
      const cells = line.slice(2, -2).split(/ (?<!\\)\| /)
      const [section, figure, goal, verdict] = cells.map((c) => c.trim().replaceAll('\\|', '|'))
      return { section: section!, figure: figure!, goal: goal!, verdict: verdict as TableRow['verdict'] }
    })
}

/** Writes `rows` (with `date` above them) into each guide; returns the files written. */
export function writeDocsTables(rows: readonly TableRow[], ran: readonly string[], date: string, order: readonly string[], note = ''): string[] {
  const written: string[] = []
  for (const { file, sections } of TARGETS) {
    const text = readFileSync(file, 'utf8')
    const from = text.indexOf(START)
    const to = text.indexOf(END)
    if (from < 0 || to < from) throw new Error(`${file}: no ${START} ... ${END} markers`)
    const kept = rowsIn(text.slice(from, to)).filter((r) => sections(r.section) && !ran.includes(r.section))
    const fresh = rows.filter((r) => sections(r.section))
    if (fresh.length === 0) continue
    const all = [...kept, ...fresh].sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section))
    const block = [START, `Measured ${date} (\`npm run bench\`, Node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} cores${note}):`, '', ...markdownTable(all), END].join('\n')
    writeFileSync(file, text.slice(0, from) + block + text.slice(to + END.length))
    written.push(file)
  }
  return written
}
