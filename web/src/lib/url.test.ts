import { describe, expect, it } from 'vitest';
import { withScheme } from './url';

describe('withScheme', () => {
  it.each([
    ['heise.de', 'https://heise.de'],
    ['  heise.de/news?x=1 ', 'https://heise.de/news?x=1'],
    ['www.example.org/pfad', 'https://www.example.org/pfad'],
    ['example.com:8080/x', 'https://example.com:8080/x'],
    ['localhost:3000', 'https://localhost:3000'],
    ['//cdn.example.com/a', 'https://cdn.example.com/a'],
    ['bücher.de', 'https://bücher.de'],
  ])('%j → %j', (typed, url) => {
    expect(withScheme(typed)).toBe(url);
  });

  it.each([
    'https://heise.de',
    'http://example.com',
    'mailto:a@b.de',
    'javascript:alert(1)',
    '',
    'heise',
    'zwei worte.de',
  ])('leaves %j as it is', (typed) => {
    expect(withScheme(typed)).toBe(typed);
  });
});
