/*
 * The fenced blocks of README.md and docs/*.md, each marked on the line before its fence:
 * - `<!-- runnable -->`: ts or sh, run as written by test/consumer.test.ts in a fresh project. A block
 *   that talks to a service names it in a comment line: the `npx market-candles serve ...` command
 *   (its clock: `--now`, `--clock-rate`) and the environment it reads (`MARKET_CANDLES_API_KEY=...`).
 * - `<!-- fragment -->`: code that needs names from elsewhere (or a command for a clone of the
 *   repository). Its first line is a comment saying so, which names the runnable block it belongs to (a heading in quotes: `"The SDK in use"`, in
 *   this file or a file the comment names) or an example of the repository (`examples/x.ts`).
 * - `<!-- text -->`: not a command: output, a body, a file's content, a layout (never ts, sh, python).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export type BlockKind = 'runnable' | 'fragment' | 'text'

export interface DocBlock {
  /** `docs/sdk.md:323 (ts)`: the file and the line of the fence. */
  name: string
  file: string
  line: number
  lang: string
  kind: BlockKind | undefined
  code: string
}

/** The service a runnable block names, and the environment it reads. */
export interface BlockService {
  /** The flags after `serve`, `--port` left out. */
  serveArgs: string[]
  /** The port the block's text uses (`--port N`, else serve's default, 4010). */
  port: number
  env: Record<string, string>
}

const CODE_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'sh', 'bash', 'python'])

export function docFiles(root: string): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
}

export function docBlocks(root: string): DocBlock[] {
  const blocks: DocBlock[] = []
  for (const file of docFiles(root)) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n')
    for (let i = 0; i < lines.length; i++) {
      const fence = /^```(\S*)/.exec(lines[i]!)
      if (!fence) continue
      const end = lines.indexOf('```', i + 1)
      if (end < 0) throw new Error(`${file}:${i + 1}: a fence that is never closed`)
      const marker = /^<!-- (runnable|fragment|text) -->$/.exec(lines[i - 1]?.trim() ?? '')
      const lang = fence[1]!
      blocks.push({ name: `${file}:${i + 1} (${lang || 'plain'})`, file, line: i + 1, lang, kind: marker?.[1] as BlockKind | undefined, code: lines.slice(i + 1, end).join('\n') })
      i = end
    }
  }
  return blocks
}

/** What is wrong with a block's marking, or undefined when nothing is. */
export function markingProblem(root: string, block: DocBlock, all: DocBlock[]): string | undefined {
  const code = CODE_LANGS.has(block.lang)
  switch (block.kind) {
    case undefined:
      return 'no <!-- runnable -->, <!-- fragment --> or <!-- text --> on the line before the fence'
    case 'runnable':
      return ['ts', 'typescript', 'sh', 'bash'].includes(block.lang) ? undefined : `a runnable block is ts or sh, not ${block.lang || 'plain'}`
    case 'text':
      return code ? `${block.lang} is code: mark it runnable or fragment` : undefined
    case 'fragment': {
      if (!code) return `a fragment is code (ts, sh, python), not ${block.lang || 'plain'}: mark it text`
      const first = block.code.split('\n')[0]!.trim()
      if (!/^(\/\/|#)/.test(first) || !/fragment|in a clone of the repository/i.test(first)) return `its first line does not say it is a fragment (or a command for a clone of the repository): ${first}`
      return pointsToRunnable(root, block, all, first) ? undefined : `its first line names no runnable block (a heading in quotes over a runnable block) or example: ${first}`
    }
  }
}

function pointsToRunnable(root: string, block: DocBlock, all: DocBlock[], comment: string): boolean {
  for (const [path] of comment.matchAll(/examples\/[\w./-]*\w/g)) if (existsSync(join(root, path))) return true
  const named = /\b(README\.md|[\w-]+\.md)\b/.exec(comment)?.[1]
  const file = named === undefined ? block.file : named === 'README.md' ? 'README.md' : `docs/${named}`
  for (const [, heading] of comment.matchAll(/"([^"]+)"/g)) {
    const section = sectionOf(root, file, heading!)
    if (section && all.some((b) => b.kind === 'runnable' && b.file === file && b.line > section.from && b.line < section.to)) return true
  }
  return false
}

/** The lines of the section under a heading (its text without backticks), up to the next heading of its level or higher. */
function sectionOf(root: string, file: string, heading: string): { from: number; to: number } | undefined {
  if (!existsSync(join(root, file))) return undefined
  // Headings outside fences only: a shell comment is not one.
  let fenced = false
  const lines = readFileSync(join(root, file), 'utf8').split('\n').map((l) => {
    if (l.startsWith('```')) fenced = !fenced
    return fenced || l.startsWith('```') ? '' : l
  })
  const at = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, '').replaceAll('`', '').trim() === heading)
  if (at < 0) return undefined
  const level = /^#+/.exec(lines[at]!)![0].length
  const next = lines.findIndex((l, i) => i > at && new RegExp(`^#{1,${level}} `).test(l))
  return { from: at + 1, to: next < 0 ? lines.length + 1 : next + 1 }
}

/**
 * The service a runnable block names in a comment line: `npx market-candles serve FLAGS`, the flags
 * up to the end of the line, a `;` or a `(`; `NAME=value` of MARKET_CANDLES_* on the line or the next.
 */
export function serviceOf(block: DocBlock): BlockService | undefined {
  const lines = block.code.split('\n')
  const at = lines.findIndex((l) => /^\s*(\/\/|#)/.test(l) && l.includes('npx market-candles serve'))
  if (at < 0) return undefined
  const flags = /npx market-candles serve((?:\s+--?[\w-]+(?:\s+(?!--)[^\s;(,`]+)?)*)/.exec(lines[at]!)![1]!.trim().split(/\s+/).filter(Boolean)
  const serveArgs: string[] = []
  let port = 4010
  for (let i = 0; i < flags.length; i++) {
    if (flags[i] === '--port') port = Number(flags[++i])
    else serveArgs.push(flags[i]!)
  }
  const env: Record<string, string> = {}
  for (const line of lines.slice(at, at + 2)) for (const [, key, value] of line.matchAll(/\b(MARKET_CANDLES_\w+)=(\S+)/g)) env[key!] = value!
  return { serveArgs, port, env }
}
