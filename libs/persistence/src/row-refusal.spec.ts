import { DatabaseUnavailableError, isRowRefusal } from './persistence-errors';

const withCode = (code: string, message = 'database error') => Object.assign(new Error(message), { code });
/** TypeORM's QueryFailedError keeps the driver's error in `driverError`. */
const queryFailed = (driverError: Error) => Object.assign(new Error(driverError.message), { name: 'QueryFailedError', driverError });

describe(isRowRefusal.name, () => {
  it.each([
    ['a value out of range (22003)', queryFailed(withCode('22003'))],
    ['invalid input syntax for type bigint (22P02)', queryFailed(withCode('22P02', 'invalid input syntax for type bigint: "1e+24"'))],
    ['a NUL character in text (22021)', withCode('22021')],
    ['a check constraint (23514)', withCode('23514')],
    ['an index row too large (54000)', withCode('54000')],
    ['a value the driver could not send (RangeError: Invalid time value)', new RangeError('Invalid time value')],
  ])('blames the rows for %s', (_name, error) => {
    expect(isRowRefusal(error)).toBe(true);
  });

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a pool checkout timeout', new Error('timeout exceeded when trying to connect')],
    ['a connection lost (08006)', queryFailed(withCode('08006'))],
    ['a server shutting down (57P01)', withCode('57P01')],
    ['a serialization failure (40001)', withCode('40001')],
    ['a statement timeout (57014)', withCode('57014')],
    ['an unopened database', new DatabaseUnavailableError('the database is not open')],
    ['an error without a code', new Error('something else')],
  ])('blames no row for %s', (_name, error) => {
    expect(isRowRefusal(error)).toBe(false);
  });
});
