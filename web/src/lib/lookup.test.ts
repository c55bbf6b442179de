import { describe, expect, it } from 'vitest';
import { parseLookup } from './lookup';

describe('parseLookup', () => {
  it.each([
    ['aB3dE5f', 'aB3dE5f'],
    ['  aB3dE5f  ', 'aB3dE5f'],
    ['https://sho.rt/s/aB3dE5f', 'aB3dE5f'],
    ['http://localhost:8080/s/aB3dE5f', 'aB3dE5f'],
    ['https://sho.rt/s/aB3dE5f/', 'aB3dE5f'],
    ['https://sho.rt/s/aB3dE5f///', 'aB3dE5f'],
    ['https://sho.rt/s/aB3dE5f/info', 'aB3dE5f'],
    ['https://sho.rt/s/aB3dE5f?password=x', 'aB3dE5f'],
    ['sho.rt/s/aB3dE5f', 'aB3dE5f'],
    ['localhost/s/aB3dE5f', 'aB3dE5f'],
    ['/s/aB3dE5f', 'aB3dE5f'],
    ['s/aB3dE5f', 'aB3dE5f'],
    ['/s/my-code_1/', 'my-code_1'],
    ['https://sho.rt/aB3dE5f', 'aB3dE5f'],
    ['abc', 'abc'],
    ['x'.repeat(64), 'x'.repeat(64)],
  ])('%s → %s', (input, code) => {
    expect(parseLookup(input)).toBe(code);
  });

  it.each([
    '',
    '   ',
    '/s/',
    'https://sho.rt/',
    'https://sho.rt/s/',
    '!!!',
    'ab cd',
    '/s/%E0%A4%A',
    'äöü',
    'ab',
    'x'.repeat(65),
  ])('rejects junk %j', (input) => {
    expect(parseLookup(input)).toBeNull();
  });
});
