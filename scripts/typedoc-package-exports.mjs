// typedoc plugin: the API reference documents exactly the code import paths package.json `exports`, each
// as a module named after that path (`market-candles/mocks/node`, not `mocks/node`).
// The source of an export follows the layout tsup builds from (tsup.config.ts):
//   `market-candles` -> src/index.ts, `market-candles/schemas` -> src/schemas/index.ts,
//   `market-candles/redis` -> src/redis/index.ts,
//   `market-candles/mocks` -> mocks/index.ts, `market-candles/mocks/X` -> mocks/X/index.ts.
// A new export is documented without touching typedoc.json; one whose source is missing is an error.
import { existsSync, readFileSync } from 'node:fs'
import { Application, Converter, ReflectionKind, RendererEvent } from 'typedoc'

const root = new URL('..', import.meta.url)
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))

/** `./mocks/node` -> the entry file it is built from, relative to the repository root. */
function sourceOf(subpath) {
  if (subpath === '.') return 'src/index.ts'
  if (subpath === './schemas') return 'src/schemas/index.ts'
  if (subpath === './redis') return 'src/redis/index.ts'
  return `${subpath.slice(2)}/index.ts`
}

// Code entries only: an export that is a plain file (package.json, the OpenAPI document) is no module.
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([subpath]) => subpath)
  .map((subpath) => ({ name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, source: sourceOf(subpath) }))

/** typedoc's own name of an entry module: its file's folder, relative to the entries' common folder. */
const folderOf = (source) => source.replace(/\/index\.ts$/, '')

/** @param {Application} app */
export function load(app) {
  // The guides mark stable anchors as `<a id="..."></a>` before a heading (docs/contract.md#paging).
  // typedoc passes that HTML through but knows only heading slugs when it checks links between
  // guides: register those ids too, before its check at the end of rendering (priority > 0 runs first).
  app.renderer.on(
    RendererEvent.END,
    (event) => {
      for (const doc of event.project.getReflectionsByKind(ReflectionKind.Document)) {
        const text = doc.content.map((part) => part.text).join('')
        const slugger = app.renderer.router.getSlugger(doc)
        for (const [, id] of text.matchAll(/<a id="([^"]+)"><\/a>/g)) if (!slugger.hasAnchor(id)) slugger.slug(id)
      }
    },
    100,
  )
  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    const missing = entries.filter((e) => !existsSync(new URL(e.source, root)))
    if (missing.length > 0) app.logger.error(`typedoc-package-exports: no source for ${missing.map((e) => `${e.name} (${e.source})`).join(', ')}`)
    app.options.setValue('entryPoints', entries.map((e) => e.source))
  })
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const byFolder = new Map(entries.map((e) => [folderOf(e.source), e.name]))
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const name = byFolder.get(module.name)
      if (name) module.name = name
      else app.logger.warn(`typedoc-package-exports: module "${module.name}" is not an exported import path`)
    }
  })
}
