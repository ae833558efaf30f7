import type { Combine } from './aggregated-series.js'
import { ommVwapV1 } from './omm-vwap-v1.js'

/** The aggregation methods the reference service implements, by name. */
export const METHOD_IMPLEMENTATIONS: Readonly<Record<string, Combine>> = { omm_vwap_v1: ommVwapV1 }
