import { readFileSync } from 'node:fs'
import { UsageError } from './usage-error.js'

/**
 * The key from `--api-key-file` (first line, trimmed) or MARKET_CANDLES_API_KEY. Messages name the
 * file, never its content.
 */
export function readApiKey(file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (file === undefined) return env.MARKET_CANDLES_API_KEY?.trim() || undefined
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`cannot read --api-key-file ${file}${code ? ` (${code})` : ''}`)
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '')
  if (lines.length === 0) throw new UsageError(`--api-key-file ${file} is empty`)
  if (lines.length > 1) throw new UsageError(`--api-key-file ${file} holds ${lines.length} lines; it must hold the key alone`)
  return lines[0]
}
