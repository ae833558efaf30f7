/**
 * The one table `npm run bench` ends with: a row per figure, with its goal and verdict. A section
 * hands its rows to run.ts from its result (see `define` there).
 */

/**
 * `met`: the median meets the goal, and so does the whole run-to-run spread.
 * `inside the spread`: the median meets the goal, but part of the spread does not: a run may not.
 * `not met`: the median does not meet the goal (whatever the spread).
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

/**
 * Verdict of a figure measured several times, its `median` and its spread [`low`, `high`], against
 * `figure >= goal` (or `<=` with `atMost`): the median decides whether it is met at all.
 */
export function verdictOf(median: number, low: number, high: number, goal: number, atMost = false): Verdict {
  if (![median, low, high].every(Number.isFinite)) return 'not measured'
  const meets = (x: number) => (atMost ? x <= goal : x >= goal)
  if (!meets(median)) return 'not met'
  return meets(atMost ? high : low) ? 'met' : 'inside the spread'
}

/** {@link verdictOf} of the runs `xs`: their median, lowest and highest. */
export function verdictOfRuns(xs: readonly number[], goal: number, atMost = false): Verdict {
  if (xs.length === 0) return 'not measured'
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return verdictOf(median, sorted[0]!, sorted.at(-1)!, goal, atMost)
}

/** {@link verdictOf} of a figure measured once (no spread). */
export const verdictOfOne = (x: number, goal: number, atMost = false): Verdict => verdictOf(x, x, x, goal, atMost)

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
