/*
 * What a shell block of the docs says its curl commands answer, checked against what they answered.
 * A command's answer is documented by the comment at the end of its line (`# 201 {"id":"fault-1"}`)
 * or by the comment line right above it (`# An outage ...: 200 {"candles": 7}`): a status, a JSON
 * body, or both; `...` stands for any text; prose after them is ignored. The block runs with a curl
 * config (CURL_HOME, see CURLRC) that ends each answer with its status on a line of its own.
 */

/** A .curlrc that ends every answer with `<<STATUS>>` on its own line and keeps curl's progress meter off. */
export const CURLRC = 'silent\nwrite-out = "\\n<<%{http_code}>>\\n"\n'

interface Documented {
  command: string
  status?: string
  body?: string
}

/** The curl commands of a block, in order, with what their comments say they answer. */
export function documentedAnswers(code: string): Documented[] {
  const lines = code.split('\n')
  const found: Documented[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*curl\s/.test(lines[i]!)) continue
    // A command runs on while a line ends in `\` or a single quote is still open.
    const start = i
    let text = lines[i]!
    let end = i
    while ((/\\\s*$/.test(text) || (withoutComment(text).match(/'/g) ?? []).length % 2 === 1) && end + 1 < lines.length) text += `\n${lines[++end]}`
    i = end
    // A command piped on (`curl ... | head -1`) hands its answer, status line included, to the pipe.
    if (/\s\|\s/.test(withoutComment(text))) continue
    const trailing = commentOf(lines[end]!)
    const above = start > 0 && /^\s*#/.test(lines[start - 1]!) ? /:\s+(\d{3}\b.*)$/.exec(lines[start - 1]!)?.[1] : undefined
    found.push({ command: text.trim(), ...expectation(trailing !== undefined && /^(\d{3}\b|[{[])/.test(trailing) ? trailing : above) })
  }
  return found
}

/** Mismatches between the documented answers and the answers in `stdout`, one line each. */
export function answerMismatches(code: string, stdout: string): string[] {
  const answers = [...stdout.matchAll(/([\s\S]*?)\n<<(\d{3})>>\n/g)].map(([, body, status]) => ({ body: body!, status: status! }))
  const documented = documentedAnswers(code)
  if (answers.length !== documented.length) return [`${documented.length} curl commands, ${answers.length} answers`]
  const problems: string[] = []
  documented.forEach((doc, k) => {
    const got = answers[k]!
    if (doc.status !== undefined && doc.status !== got.status) problems.push(`${doc.command}\n  documented ${doc.status}, answered ${got.status}`)
    if (doc.body !== undefined && !containsInOrder(squeeze(got.body), doc.body.split('...').map((s) => squeeze(s).replace(/^,|,$/g, '')))) {
      problems.push(`${doc.command}\n  documented ${doc.body}\n  answered   ${got.body.slice(0, 300)}`)
    }
  })
  return problems
}

function expectation(comment: string | undefined): { status?: string; body?: string } {
  if (comment === undefined) return {}
  const status = /^(\d{3})\b/.exec(comment)?.[1]
  const rest = comment.slice(status?.length ?? 0).replace(/^[\s:]+/, '')
  const body = /^[{[]/.test(rest) ? balanced(rest) : undefined
  return { ...(status ? { status } : {}), ...(body ? { body } : {}) }
}

/** The JSON-like text at the start of `text`, up to its matching bracket. */
function balanced(text: string): string | undefined {
  let depth = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted
    if (quoted) continue
    if (c === '{' || c === '[') depth++
    if (c === '}' || c === ']') depth--
    if (depth === 0) return text.slice(0, i + 1)
  }
  return undefined
}

/** The comment at the end of a shell line (a `#` after whitespace, outside quotes). */
function commentOf(line: string): string | undefined {
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === quote) quote = undefined
    } else if (c === "'" || c === '"') quote = c
    else if (c === '#' && /\s/.test(line[i - 1] ?? '')) return line.slice(i + 1).trim()
  }
  return undefined
}

/** The text without each line's trailing comment (its quotes would count as the command's). */
function withoutComment(text: string): string {
  return text.split('\n').map((l) => (commentOf(l) === undefined ? l : l.slice(0, l.lastIndexOf('#')))).join('\n')
}

const squeeze = (text: string) => text.replace(/\s+/g, '')

function containsInOrder(text: string, parts: string[]): boolean {
  let from = 0
  for (const part of parts) {
    if (part === '') continue
    const at = text.indexOf(part, from)
    if (at < 0) return false
    from = at + part.length
  }
  return true
}
