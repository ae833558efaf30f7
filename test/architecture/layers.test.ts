import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'

/*
 * The layers: src/ (the SDK) below mocks/ (the reference service and its adapters) below cli/
 * (the commands). A module may import from its own layer and the layers below it, never upward.
 */
const ROOT = resolve(import.meta.dirname, '../..')
const LAYERS = ['src', 'mocks', 'cli'] as const

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1]!)
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, file, '..', s)))
}

describe('layers: src/ below mocks/ below cli/, nothing imports upward', () => {
  for (const [rank, layer] of LAYERS.entries()) {
    test(`${layer}/ imports nothing from ${LAYERS.slice(rank + 1).join(', ') || '(none above)'}`, () => {
      const above = LAYERS.slice(rank + 1)
      const upward = sources(layer).flatMap((file) =>
        importsOf(file)
          .filter((target) => above.some((up) => target === up || target.startsWith(`${up}/`)))
          .map((target) => `${file} -> ${target}`),
      )
      expect(upward).toEqual([])
      // the check reads real files: an empty layer would make it pass vacuously
      expect(sources(layer).length).toBeGreaterThan(3)
    })
  }
})
