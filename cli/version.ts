import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The package's version, read from its package.json: the nearest one named `market-candles` above
 * this file (`dist/cli.js` in the package, `cli/` in a clone).
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'market-candles' && typeof pkg.version === 'string') return pkg.version
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('market-candles: cannot find its own package.json')
    dir = parent
  }
}
