import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../common/errors';
import { compileQuery, escapeLike, type SearchField } from './query';

const FIELDS: SearchField[] = [
  { name: 'name', type: 'text', sql: 's.name', freeText: true },
  { name: 'code', type: 'keyword', sql: 's.code', freeText: true },
  { name: 'uses', type: 'number', sql: 's.uses' },
  { name: 'dangerous', type: 'boolean', sql: 's.dangerous' },
  { name: 'createdAt', type: 'date', sql: 's.created_at' },
  { name: 'state', type: 'enum', sql: 'r.state', values: ['open', 'dismissed'] },
];

const c = (q: string) => compileQuery('shorts', q, FIELDS);

describe('admin query compiler', () => {
  it('binds every value as a parameter', () => {
    const r = c(`name:"x')) OR 1=1--" AND code:abc`);
    expect(r.sql).toBe("(LOWER(s.name) LIKE :q0 ESCAPE '!' AND s.code = :q1)");
    expect(r.params).toEqual({ q0: "%x')) or 1=1--%", q1: 'abc' });
  });

  it('escapes LIKE metacharacters and turns only * and ? into wildcards', () => {
    expect(escapeLike('50%_!')).toBe('50!%!_!!');
    expect(c('name:"50%"').params).toEqual({ q0: '%50!%%' });
    expect(c('name:a_*').params).toEqual({ q0: 'a!_%' });
    expect(c('code:ab?d*').sql).toBe("s.code LIKE :q0 ESCAPE '!'");
    expect(c('code:ab?d*').params).toEqual({ q0: 'ab_d%' });
    expect(c('name:"a*b"').params).toEqual({ q0: '%a*b%' });
  });

  it('compiles NOT, OR, parentheses, ranges, comparisons, booleans, dates and null', () => {
    expect(c('NOT (uses:>3 OR uses:[1 TO 2])').sql).toBe(
      'NOT (((s.uses > :q0 OR (s.uses >= :q1 AND s.uses <= :q2))))',
    );
    expect(c('-dangerous:true').sql).toBe('NOT (s.dangerous = :q0)');
    expect(c('dangerous:true').params).toEqual({ q0: 1 });
    const day = c('createdAt:2024-05-01');
    expect(day.sql).toBe('(s.created_at >= :q0 AND s.created_at < :q1)');
    expect(day.params.q0).toEqual(new Date('2024-05-01T00:00:00Z'));
    expect(c('name:null').sql).toBe('s.name IS NULL');
    expect(c('state:OPEN').params).toEqual({ q0: 'open' });
    expect(c('').sql).toBe('1=1');
  });

  it('searches free text over the free-text fields', () => {
    const r = c('hello');
    expect(r.sql).toBe("(LOWER(s.name) LIKE :q0 ESCAPE '!' OR LOWER(s.code) LIKE :q0 ESCAPE '!')");
    expect(r.params).toEqual({ q0: '%hello%' });
  });

  it('refuses unknown fields, bad values and syntax errors with a clear message', () => {
    expect(() => c('secret:x')).toThrow(
      /Unknown field "secret" for shorts; known fields: name, code/,
    );
    expect(() => c('uses:abc')).toThrow('Field "uses" needs a number');
    expect(() => c('dangerous:maybe')).toThrow(BadRequestError);
    expect(() => c('state:closed')).toThrow('Field "state" is one of open, dismissed');
    expect(() => c('name:/x/')).toThrow(/Regular expressions/);
    expect(() => c(')) OR 1=1--')).toThrow(/^Query syntax error at line 1 column/);
    expect(() => c('((')).toThrow(/^Query syntax error/);
    expect(() => c('x'.repeat(1001))).toThrow(/longer than/);
  });
});
