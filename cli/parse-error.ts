import { closest } from '../src/internal/known-keys.js'
import { UsageError } from './usage-error.js'

/** The option table a command gives node:util's parseArgs. */
export type OptionTable = Readonly<Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean; default?: unknown }>>

/**
 * A command's flags as written: `--name` for each option, `--no-name` too for a boolean that is on
 * by default (parseArgs' `allowNegative`), `-x` for its short form.
 */
function flagsOf(options: OptionTable): string[] {
  return Object.entries(options).flatMap(([name, o]) => [
    `--${name}`,
    ...(o.type === 'boolean' && o.default === true ? [`--no-${name}`] : []),
    ...(o.short ? [`-${o.short}`] : []),
  ])
}

/**
 * The flag a mistyped one most likely meant: one that begins with it or that it begins with
 * (`--output` for `--out`, `--api-key` for `--api-key-file`), else the nearest by edit distance,
 * as the SDK suggests option names.
 */
export function closestFlag(typed: string, options: OptionTable): string | undefined {
  const name = typed.replace(/^-+/, '').replace(/=.*$/s, '').toLowerCase()
  if (name.length === 0) return undefined
  const long = flagsOf(options).filter((f) => f.startsWith('--'))
  const prefixed = long
    .filter((f) => Math.min(name.length, f.length - 2) >= 3 && (f.slice(2).startsWith(name) || name.startsWith(f.slice(2))))
    .sort((a, b) => Math.abs(a.length - 2 - name.length) - Math.abs(b.length - 2 - name.length))
  if (prefixed.length > 0) return prefixed[0]
  const near = closest(name, long.map((f) => f.slice(2)))
  return near === undefined ? undefined : `--${near}`
}

/**
 * parseArgs' error as a {@link UsageError} in the command's words: an unknown flag names the closest
 * one (never the value of `--flag=value`: it may be a secret); other errors keep node's message.
 */
export function usageErrorOf(error: unknown, options: OptionTable): UsageError {
  const e = error as { code?: string; message?: string }
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const typed = (/'([^']*)'/.exec(e.message ?? '')?.[1] ?? '').replace(/=.*$/s, '')
    const guess = closestFlag(typed, options)
    return new UsageError(`Unknown option '${typed}'${guess ? `; did you mean '${guess}'?` : ''}`)
  }
  // node's other messages quote tokens: a `--flag=value` among them is shown without its value.
  return new UsageError((e.message ?? String(error)).replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=…'"))
}
