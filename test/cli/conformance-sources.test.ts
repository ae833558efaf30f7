import { fileURLToPath } from 'node:url'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { RULES } from '../../cli/conformance/index.js'
import { DECISION, IFACE } from '../../cli/conformance/sources.js'

const DOC = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8')
// The published interface lives beside the repository (the spec folder the project is built from),
// not in it (../shared/spec, on the developers' machines and in CI): the quotes are checked where it is at hand.
const SPEC = [process.env.MARKET_CANDLES_SPEC_DIR, fileURLToPath(new URL('../../../shared/spec', import.meta.url))].filter((d): d is string => d !== undefined).map((d) => `${d}/interface.md`).find((f) => existsSync(f))
const INTERFACE = SPEC === undefined ? '' : readFileSync(SPEC, 'utf8')

describe('conformance: every rule, and every part of a rule, names its source', () => {
  test('every rule declares at least one source, each a statement of interface.md or a decision', () => {
    for (const rule of RULES) {
      expect(rule.sources.length, rule.id).toBeGreaterThan(0)
      for (const source of rule.sources) expect([...Object.values(IFACE), ...Object.values(DECISION)], `${rule.id}: ${source.ref}`).toContain(source)
    }
  })

  test('every statement and decision listed is checked by some rule', () => {
    const used = new Set(RULES.flatMap((r) => r.sources))
    for (const source of [...Object.values(IFACE), ...Object.values(DECISION)]) expect(used.has(source), source.ref).toBe(true)
  })

  test.skipIf(SPEC === undefined)('each statement quoted from interface.md stands there (a table row quoted as "field: notes"; needs the spec folder: MARKET_CANDLES_SPEC_DIR)', () => {
    // Table rows read "| field | type | notes |": compare words, without the table's punctuation.
    const words = (text: string) => text.toLowerCase().replace(/[|`",;.]/g, ' ').replace(/\s+/g, ' ').trim()
    const spec = words(INTERFACE)
    for (const source of Object.values(IFACE)) {
      if (source.ref === 'interface.md#fields') continue // a summary of the five tables, not a sentence
      const parts = source.quote.split(': ')
      expect(spec, `${source.ref}: ${source.quote}`).toContain(words(parts.at(-1)!))
      if (parts.length > 1 && /^[a-z_]+$/.test(parts[0]!)) expect(spec, source.ref).toContain(words(parts[0]!))
    }
  })

  test('docs/conformance.md lists every rule with its sources, and maps every statement to a rule', () => {
    for (const rule of RULES) {
      const row = DOC.split('\n').find((line) => line.startsWith(`| \`${rule.id}\` |`))
      expect(row, rule.id).toBeDefined()
      for (const source of rule.sources) {
        const short = source.kind === 'decision' ? source.ref : `#${source.ref.split('#')[1]}`
        expect(row, `${rule.id} names ${source.ref}`).toContain(short)
      }
    }
    const mapping = DOC.slice(DOC.indexOf('## interface.md, statement by statement'))
    for (const source of Object.values(IFACE)) expect(mapping, source.ref).toMatch(new RegExp(`[(, ]#${source.ref.split('#')[1]}[),]`))
  })
})
