/** Plain code-unit order, the same in every locale (contract: catalog-order). */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
