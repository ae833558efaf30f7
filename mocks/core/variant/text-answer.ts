import type { MockResponse } from '../message/types.js'

/**
 * True when the answer's body is text to send as it is (`Content-Type: text/...`, a string body),
 * not JSON to encode: the `errorBodies: 'text'` variant's errors. Every adapter asks this.
 */
export const isTextAnswer = (res: MockResponse): res is MockResponse & { body: string } =>
  typeof res.body === 'string' && (res.headers['content-type'] ?? '').startsWith('text/')
