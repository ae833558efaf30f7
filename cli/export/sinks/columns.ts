// The columns live beside the reader of exports (mocks/data/export-files): `load()` reads what the sinks write.
export { AGGREGATED_COLUMNS, EXCHANGE_COLUMNS, PRICE_COLUMNS, columnsOf, type Kind } from '../../../mocks/data/export-files/rows/columns.js'
