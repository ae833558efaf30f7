import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'))
const pkg = read('package.json')
const lock = read('package-lock.json')

/** `./dist/cli.js` and `dist/cli.js` are the same bin path; npm writes the latter into the lockfile. */
const bins = (bin: Record<string, string> | undefined) => Object.fromEntries(Object.entries(bin ?? {}).map(([k, v]) => [k, v.replace(/^\.\//, '')]))

describe('npm install on a fresh clone leaves git status clean', () => {
  test("package-lock.json's root entry already holds what npm install writes from package.json", () => {
    const root = lock.packages['']
    expect(lock.name).toBe(pkg.name)
    expect(lock.version).toBe(pkg.version)
    expect(root.name).toBe(pkg.name)
    expect(root.version).toBe(pkg.version)
    expect(root.license).toBe(pkg.license)
    expect(bins(root.bin)).toEqual(bins(pkg.bin))
    expect(root.engines).toEqual(pkg.engines)
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'peerDependenciesMeta']) {
      expect(root[field] ?? {}, field).toEqual(pkg[field] ?? {})
    }
  })

  test('every dependency range of package.json is installed by the lockfile', () => {
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]) {
      expect(lock.packages[`node_modules/${name}`], name).toBeDefined()
    }
  })
})
