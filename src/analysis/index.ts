export { resample, type ResampleOptions } from './resample.js'
export { ResampleError } from './resample-error.js'
export type { ResampledCandle, BucketFill } from './resampled-candle.js'
