import { readFileSync } from 'node:fs'
import { createMockService, type MockService, type MockServiceOptions } from '../../mocks/core/service.js'

/** The keys a `--data` file may hold: what `createMockService` takes for the dataset. */
const DATA_KEYS = ['data', 'plans', 'accounts', 'keys'] as const

/** A `--data` file that cannot be served; the CLI prints the message and exits 1. */
export class DataFileError extends Error {
  override name = 'DataFileError'
}

/**
 * Reads a user's dataset (`{ data, plans, accounts, keys }`, each optional) from a JSON file and
 * checks every record by building the service from it. Throws a {@link DataFileError} naming the
 * file and the bad record.
 */
export function loadDataFile(file: string, options: Omit<MockServiceOptions, (typeof DATA_KEYS)[number]>): { service: MockService; keyCount: number | undefined } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new DataFileError(`--data ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new DataFileError(`--data ${file}: not valid JSON (${(error as Error).message})`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new DataFileError(`--data ${file}: expected an object { data, plans, accounts, keys }, got ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : typeof parsed}`)
  }
  const unknown = Object.keys(parsed).filter((k) => !(DATA_KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) throw new DataFileError(`--data ${file}: unknown key '${unknown[0]}' (expected ${DATA_KEYS.join(', ')})`)
  const data = (parsed as { data?: unknown }).data
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) {
    throw new DataFileError(`--data ${file}: data: expected { exchanges, assets, candles } or { exchanges, assets, listings }`)
  }
  const dataset = parsed as Pick<MockServiceOptions, (typeof DATA_KEYS)[number]>
  try {
    const service = createMockService({ ...options, ...dataset })
    return { service, keyCount: Array.isArray(dataset.keys) ? dataset.keys.length : undefined }
  } catch (error) {
    // FixtureError messages name the record (`candles[3].low: ...`) and never quote a whole key.
    throw new DataFileError(`--data ${file}: ${(error as Error).message}`)
  }
}
