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
