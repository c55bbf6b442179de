import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import {
  databaseErrorCode,
  isDatabaseUnavailable,
  isUniqueViolation,
  onUniqueViolation,
  statementMayHaveRun,
} from './errors';

const driverError = (fields: Record<string, unknown>, message = 'x') =>
  Object.assign(new Error(message), fields);
const wrapped = (e: Error) => new QueryFailedError('SELECT 1', [], e);

describe('database error classification', () => {
  it('connection-level MySQL/MariaDB errors are "unavailable"', () => {
    for (const code of [
      'ECONNREFUSED',
      'PROTOCOL_CONNECTION_LOST',
      'PROTOCOL_SEQUENCE_TIMEOUT',
      'ETIMEDOUT',
      'ER_CON_COUNT_ERROR',
      'POOL_ACQUIRE_TIMEOUT',
    ]) {
      expect(isDatabaseUnavailable(wrapped(driverError({ code }))), code).toBe(true);
      expect(isDatabaseUnavailable(driverError({ code })), code).toBe(true);
    }
    expect(isDatabaseUnavailable(driverError({ fatal: true }, 'socket hang up'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Pool is closed.'))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error("Can't add new command when connection is in closed state")),
    ).toBe(true);
  });

  it('PostgreSQL connection, resource, shutdown and timeout states are "unavailable"', () => {
    for (const code of ['08006', '08001', '53300', '57P01', '57014', '40P01']) {
      expect(isDatabaseUnavailable(wrapped(driverError({ code }))), code).toBe(true);
    }
    for (const message of [
      'timeout exceeded when trying to connect',
      'Connection terminated unexpectedly',
      'Query read timeout',
    ]) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    }
    for (const code of ['42P01', '23505', '22001']) {
      expect(isDatabaseUnavailable(wrapped(driverError({ code }))), code).toBe(false);
    }
    expect(isUniqueViolation(wrapped(driverError({ code: '23505' })))).toBe(true);
  });

  it('busy, locked and read-only SQLite is "unavailable"', () => {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_READONLY',
      'SQLITE_IOERR_WRITE',
    ]) {
      expect(isDatabaseUnavailable(wrapped(driverError({ code }))), code).toBe(true);
    }
  });

  it('bugs, bad queries and constraint violations are not', () => {
    for (const code of [
      'ER_PARSE_ERROR',
      'ER_NO_SUCH_TABLE',
      'ER_DUP_ENTRY',
      'SQLITE_ERROR',
      'SQLITE_CONSTRAINT_UNIQUE',
      'ER_ACCESS_DENIED_ERROR',
    ]) {
      expect(isDatabaseUnavailable(wrapped(driverError({ code }))), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('string')).toBe(false);
  });

  it('unique violations and error codes', () => {
    expect(isUniqueViolation(wrapped(driverError({ code: 'ER_DUP_ENTRY' })))).toBe(true);
    expect(isUniqueViolation(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(true);
    expect(isUniqueViolation(driverError({ errno: 1062 }))).toBe(true);
    expect(isUniqueViolation(driverError({ code: 'SQLITE_BUSY' }))).toBe(false);
    expect(
      databaseErrorCode(wrapped(driverError({ code: 'ECONNREFUSED' }, 'connect 10.0.0.1'))),
    ).toBe('ECONNREFUSED');
    expect(databaseErrorCode(new TypeError('x'))).toBe('TypeError');
  });

  it('tells statements that certainly did not run from those whose outcome was lost', () => {
    for (const code of [
      'ECONNREFUSED',
      'POOL_ACQUIRE_TIMEOUT',
      'SQLITE_BUSY',
      'SQLITE_READONLY',
      '53300',
    ]) {
      expect(statementMayHaveRun(wrapped(driverError({ code }))), code).toBe(false);
    }
    expect(
      statementMayHaveRun(
        driverError({}, "Can't add new command when connection is in closed state"),
      ),
    ).toBe(false);
    for (const code of [
      'ECONNRESET',
      'PROTOCOL_CONNECTION_LOST',
      'PROTOCOL_SEQUENCE_TIMEOUT',
      '57P01',
    ]) {
      expect(statementMayHaveRun(wrapped(driverError({ code }))), code).toBe(true);
    }
    expect(statementMayHaveRun(driverError({}, 'Connection terminated unexpectedly'))).toBe(true);
  });
});

describe('onUniqueViolation', () => {
  const conflict = () => new Error('taken');

  it('answers the write, turns a unique violation into the conflict and passes anything else on', async () => {
    await expect(onUniqueViolation(Promise.resolve(7), conflict)).resolves.toBe(7);
    const dup = Object.assign(new Error('dup'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    await expect(onUniqueViolation(Promise.reject(dup), conflict)).rejects.toThrow('taken');
    const pg = Object.assign(new Error('dup'), { code: '23505' });
    await expect(onUniqueViolation(Promise.reject(pg), conflict)).rejects.toThrow('taken');
    const down = Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
    await expect(onUniqueViolation(Promise.reject(down), conflict)).rejects.toBe(down);
  });
});
