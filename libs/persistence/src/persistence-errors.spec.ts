import { DatabaseUnavailableError, isDatabaseUnavailable } from './persistence-errors';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe(isDatabaseUnavailable.name, () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a connection exception SQLSTATE', withCode('08006')],
    ['an administrator shutdown', withCode('57P01')],
    ['the pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['our own unavailability error', new DatabaseUnavailableError('down')],
    ['a TypeORM wrapper around a refused connection', Object.assign(new Error('query failed'), { driverError: withCode('ECONNREFUSED') })],
  ])('is true for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a plain error', new Error('boom')],
    ['a non-error', 'ECONNREFUSED'],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
