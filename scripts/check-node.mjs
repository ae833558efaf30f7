// npm puts node_modules/.bin first on PATH, so scripts run on the `node` devDependency (Node 24)
// even when npm itself runs on the machine's Node 20. Fail loudly if that did not happen.
const major = Number(process.versions.node.split('.')[0])
if (major < 22) {
  console.error(
    `market-candles: these scripts need Node >= 22 but run on Node ${process.versions.node} (${process.execPath}).\n` +
      'Run them through npm (npm test, npm start) after `npm install`, so the `node` devDependency is used.',
  )
  process.exit(1)
}
// The node22 devDependency (npm:node@^22, for the runtime matrix) has a `node` bin too. A fresh
// `npm ci` links node_modules/.bin/node to the `node` package (Node 24); an incremental install may
// not. Say so rather than run everything on Node 22.
if (/[\\/]node_modules[\\/]node22[\\/]/.test(process.execPath)) {
  console.error(
    `market-candles: node_modules/.bin/node is the node22 devDependency (${process.execPath}), not Node 24.\n` +
      'Relink it: `ln -sf ../node/bin/node node_modules/.bin/node` (or `rm -rf node_modules && npm ci`).',
  )
  process.exit(1)
}
