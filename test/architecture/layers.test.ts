import { describe, expect, test } from 'vitest'
import { importsOf, sources } from './import-graph.js'

/*
 * The layers: src/ (the SDK) below mocks/ (the reference service and its adapters) below cli/
 * (the commands). A module may import from its own layer and the layers below it, never upward.
 */
const LAYERS = ['src', 'mocks', 'cli'] as const

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
