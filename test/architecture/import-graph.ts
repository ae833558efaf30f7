import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

/** The repository's root; every path below is relative to it, with `/` separators. */
export const ROOT = resolve(import.meta.dirname, '../..')

/** The .ts files under `dir` (declaration files left out). */
export function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort()
}

/**
 * The files `file` imports by a relative path: static imports, `import type`, re-exports and
 * dynamic `import('./x.js')` alike, each resolved to the .ts file (or folder index.ts) it names.
 * A specifier that names no file is kept as written, so that a check on it still sees it.
 */
export function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*(['"])(\.[^'"]+)\1/g)].map((m) => m[2]!)
  return specifiers.map((specifier) => {
    const target = relative(ROOT, resolve(ROOT, file, '..', specifier))
    for (const candidate of [target.replace(/\.js$/, '.ts'), `${target}.ts`, `${target}/index.ts`]) {
      if (candidate.endsWith('.ts') && existsSync(join(ROOT, candidate))) return candidate
    }
    return target
  })
}

/** Every import cycle among `files` (Tarjan's strongly connected components), each sorted. */
export function importCycles(files: readonly string[]): string[][] {
  const known = new Set(files)
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => known.has(t) && t !== f)]))
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter)
    counter++
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) cycles.push(component.sort())
    }
  }
  for (const f of files) if (!index.has(f)) visit(f)
  return cycles
}
