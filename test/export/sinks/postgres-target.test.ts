import { describe, expect, test } from 'vitest'
import { postgresTarget } from '../../../cli/export/sinks/postgres/postgres-target.js'
import { withoutPassword } from '../../../cli/export/flags/without-password.js'

describe('--out postgres://: the connection, as libpq reads it; the password in no message', () => {
  test('the URL gives user, password, host, port, database and sslmode; messages name it without the password', () => {
    const t = postgresTarget('postgresql://ann:p%40ss@db.example:6543/candles?sslmode=verify-full', 'market', {})
    expect(t.config).toMatchObject({ user: 'ann', password: 'p@ss', host: 'db.example', port: 6543, database: 'candles', ssl: { rejectUnauthorized: true } })
    expect(t.shown).toBe('postgres://ann@db.example:6543/candles')
    expect(t.schema).toBe('market')
  })

  test('what the URL leaves out comes from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE; the URL wins over them', () => {
    const env = { PGHOST: 'envhost', PGPORT: '5433', PGUSER: 'envuser', PGPASSWORD: 'envpw', PGDATABASE: 'envdb', PGSSLMODE: 'require' }
    expect(postgresTarget('postgres://', undefined, env).config).toMatchObject({ host: 'envhost', port: 5433, user: 'envuser', password: 'envpw', database: 'envdb', ssl: { rejectUnauthorized: false } })
    expect(postgresTarget('postgres://bob@h/x', undefined, env).config).toMatchObject({ host: 'h', user: 'bob', password: 'envpw', database: 'x', port: 5433 })
    expect(postgresTarget('postgres://', undefined, env).schema).toBe('public')
  })

  test('a socket directory in ?host=, and no password anywhere leaves it to ~/.pgpass', () => {
    const t = postgresTarget('postgres:///candles?host=/var/run/postgresql', undefined, {})
    expect(t.config).toMatchObject({ host: '/var/run/postgresql', database: 'candles', password: undefined })
    expect(t.shown).toBe('postgres://%2Fvar%2Frun%2Fpostgresql/candles')
  })

  test.each([
    ['postgres://u:secret@h:99999/db', 'is not a valid PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)'],
    ['postgres://u:secret@h/db?sslmode=sometimes', "sslmode must be disable, allow, prefer, require, verify-ca or verify-full, got 'sometimes'"],
    ['postgres://u:secret@h/db?pasword=x', "unknown connection parameter 'pasword'"],
    ['postgres://u:secret@h/%E0%A4%A', 'malformed %-escape'],
  ])('%s is refused with a clear message that does not hold the password', (out, message) => {
    expect(() => postgresTarget(out, undefined, {})).toThrow(message)
    try {
      postgresTarget(out, undefined, {})
    } catch (error) {
      expect((error as Error).message).not.toContain('secret')
    }
  })

  test('a PGPORT that is no port is refused', () => {
    expect(() => postgresTarget('postgres://h/db', undefined, { PGPORT: 'fivefour' })).toThrow("the port must be 1 to 65535, got 'fivefour'")
  })

  test('withoutPassword drops the password of a URL and a password= parameter, leaving the rest', () => {
    expect(withoutPassword('--out=postgres://u:p@ss@h/db?sslmode=require&password=x')).toBe('--out=postgres://u@h/db?sslmode=require')
    expect(withoutPassword('postgres://h/db?password=x&sslmode=require')).toBe('postgres://h/db?sslmode=require')
    expect(withoutPassword('postgres://u@h/db out.csv')).toBe('postgres://u@h/db out.csv')
  })
})
