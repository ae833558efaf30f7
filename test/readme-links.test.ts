import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
/** The repository's files on its default branch, as package.json names the repository. */
const REPO = pkg.homepage.replace(/#readme$/, '')
const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!)

describe("README links work on the registry's page (where only README.md is shown)", () => {
  test('package.json names one repository in repository, homepage and bugs', () => {
    expect(REPO).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/)
    expect(pkg.repository.url).toBe(`git+${REPO}.git`)
    expect(pkg.bugs.url).toBe(`${REPO}/issues`)
  })

  test('every link is absolute (or an anchor of the README itself)', () => {
    expect(links.length).toBeGreaterThan(0)
    const relative = links.filter((href) => !/^https?:\/\//.test(href) && !href.startsWith('#'))
    expect(relative, `relative links break on the registry's page; write ${REPO}/blob/main/<path>`).toEqual([])
  })

  test("every link into the repository names a file or folder that exists on this branch", () => {
    const missing = links
      .filter((href) => href.startsWith(`${REPO}/blob/main/`) || href.startsWith(`${REPO}/tree/main/`))
      .map((href) => href.slice(`${REPO}/blob/main/`.length).replace(/#.*$/, ''))
      .filter((path) => !existsSync(join(ROOT, path)))
    expect(missing).toEqual([])
  })
})
