import { readFileSync, statSync } from 'node:fs'
import { extname } from 'node:path'
import { DataError } from '../../mocks/data/data-error.js'
import { createMockService, type MockService, type MockServiceOptions } from '../../mocks/core/service/service.js'

/** The keys a `--data` file may hold: what `createMockService` takes for the dataset. */
const DATA_KEYS = ['data', 'plans', 'accounts', 'keys'] as const

/** A `--data` file that cannot be served; the CLI prints the message and exits 1. */
export class DataFileError extends Error {
  override name = 'DataFileError'
}

/** The files `market-candles export` writes (a directory: a Parquet dataset). */
const EXPORT_EXTENSIONS = new Set(['.sqlite', '.db', '.csv', '.jsonl'])

/** What `--data` loaded: the service, the keys the file brought (undefined: the demo keys), the candles of an export. */
export interface LoadedData {
  service: MockService
  keyCount: number | undefined
  /** Candles read from an export's file; undefined for a JSON dataset. */
  candles?: number
}

/**
 * Reads `--data FILE`: a user's dataset (`{ data, plans, accounts, keys }`, each optional) as JSON,
 * or what `market-candles export` wrote (SQLite, CSV, JSON Lines, a Parquet dataset's directory).
 * An export is served alone, on an empty catalog: its exchanges and assets are made from its
 * candles (`service.data.load`), so a recording of any deployment is served as it was, with the demo
 * plans and keys. Throws a {@link DataFileError} naming the file and the bad record or line.
 */
export async function loadDataFile(file: string, options: Omit<MockServiceOptions, (typeof DATA_KEYS)[number]>): Promise<LoadedData> {
  if (isExport(file)) {
    const service = createMockService({ ...options, data: { exchanges: [], assets: [], candles: [] } })
    try {
      const { candles } = await service.data.load(file)
      return { service, keyCount: undefined, candles }
    } catch (error) {
      // The messages name the file and the line or row; a DataError's stack is of no use to a user.
      if (error instanceof DataError) throw new DataFileError(`--data ${error.message.startsWith(file) ? error.message : `${file}: ${error.message}`}`)
      throw error
    }
  }
  return loadJsonDataFile(file, options)
}

function isExport(file: string): boolean {
  if (EXPORT_EXTENSIONS.has(extname(file).toLowerCase())) return true
  try {
    return statSync(file).isDirectory()
  } catch {
    return false
  }
}

function loadJsonDataFile(file: string, options: Omit<MockServiceOptions, (typeof DATA_KEYS)[number]>): LoadedData {
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
