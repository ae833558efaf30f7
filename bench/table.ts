/**
 * The one table `npm run bench` ends with: a row per figure, with its goal and verdict. A section
 * hands its rows to run.ts from its result (see `define` there).
 */

/**
 * `met` / `not met`: the whole run-to-run spread lies on one side of the goal.
 * `inside the spread`: the spread straddles the goal, so this run cannot tell.
 * `info`: a figure with no goal (for comparison).
 * `not measured`: a tool was missing or a run failed; the row says why.
 */
export type Verdict = 'met' | 'not met' | 'inside the spread' | 'info' | 'not measured'

export interface BenchRow {
  /** What is measured and the figure, with its spread, e.g. `reference / Prism, 1000-candle pages: 4.3× (3.9–4.6)`. */
  figure: string
  /** e.g. `>= 4×`; empty for info rows. */
  goal: string
  verdict: Verdict
}

/** A section's rows, as printed: its number (or name) first. */
export interface TableRow extends BenchRow {
  section: string
}

/** Verdict of a figure with spread [low, high] against `figure >= goal` (or `<=` with `atMost`). */
export function verdictOf(low: number, high: number, goal: number, atMost = false): Verdict {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return 'not measured'
  const [good, bad] = atMost ? [high <= goal, low > goal] : [low >= goal, high < goal]
  return good ? 'met' : bad ? 'not met' : 'inside the spread'
}

/** A plain-text table, columns padded; long figures wrap inside their column. */
export function formatTable(rows: readonly TableRow[]): string[] {
  const header: TableRow = { section: 'section', figure: 'figure', goal: 'goal', verdict: 'verdict' as Verdict }
  const FIGURE_WIDTH = 96
  const wrap = (text: string): string[] => {
    const lines: string[] = []
    let line = ''
    for (const word of text.split(' ')) {
      if (line && line.length + 1 + word.length > FIGURE_WIDTH) {
        lines.push(line)
        line = word
      } else line = line ? `${line} ${word}` : word
    }
    return [...lines, line]
  }
  const all = [header, ...rows]
  const w = {
    section: Math.max(...all.map((r) => r.section.length)),
    figure: Math.min(FIGURE_WIDTH, Math.max(...all.map((r) => r.figure.length))),
    goal: Math.max(...all.map((r) => r.goal.length)),
  }
  const out: string[] = []
  const rule = `${'-'.repeat(w.section)}-+-${'-'.repeat(w.figure)}-+-${'-'.repeat(w.goal)}-+-${'-'.repeat('inside the spread'.length)}`
  for (const [i, r] of all.entries()) {
    const figure = wrap(r.figure)
    figure.forEach((f, k) =>
      out.push(
        k === 0
          ? `${r.section.padEnd(w.section)} | ${f.padEnd(w.figure)} | ${r.goal.padEnd(w.goal)} | ${r.verdict}`
          : `${''.padEnd(w.section)} | ${f.padEnd(w.figure)} | ${''.padEnd(w.goal)} |`,
      ),
    )
    if (i === 0) out.push(rule)
  }
  return out
}

/** The same rows as a Markdown table, for the docs. */
export function markdownTable(rows: readonly TableRow[]): string[] {
  const cell = (s: string) => s.replaceAll('|', '\\|')
  return ['| section | figure | goal | verdict |', '|---|---|---|---|', ...rows.map((r) => `| ${cell(r.section)} | ${cell(r.figure)} | ${cell(r.goal)} | ${r.verdict} |`)]
}
