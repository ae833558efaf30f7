/** A Redis URL fit to print: its password (and a username) replaced by `***`; anything unreadable by a placeholder. */
export function redactRedisUrl(url: string): string {
  if (!URL.canParse(url)) return '(an unreadable Redis URL)'
  const parsed = new URL(url)
  if (parsed.password !== '') parsed.password = '***'
  if (parsed.username !== '' && parsed.password === '') parsed.username = '***'
  return parsed.toString()
}

/** The secrets of a Redis URL (password, username), to scrub from any text a Redis client wrote. */
export function redisUrlSecrets(url: string | undefined): string[] {
  if (url === undefined || !URL.canParse(url)) return url === undefined ? [] : [url]
  const { password, username } = new URL(url)
  const secret = password !== '' ? password : username
  return [secret, decodeURIComponent(secret)].filter((s) => s.length >= 1)
}

/** `text` with every secret replaced by `***`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) out = out.split(secret).join('***')
  return out
}
