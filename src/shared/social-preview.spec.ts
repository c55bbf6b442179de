import { describe, expect, it } from 'vitest';
import { checkPreview, previewFromColumn, previewToColumn } from './social-preview';

describe('a social preview (checkPreview)', () => {
  it('takes the parts trimmed and leaves empty ones out; all empty is none', () => {
    expect(
      checkPreview({ title: '  Hi ', description: '', image: 'https://cdn.example/i.png' }),
    ).toEqual({ value: { title: 'Hi', image: 'https://cdn.example/i.png' } });
    expect(checkPreview({})).toEqual({ value: null });
    expect(checkPreview({ title: null, description: '  ' })).toEqual({ value: null });
  });

  it.each([
    [[], 'preview_invalid', undefined],
    ['text', 'preview_invalid', undefined],
    [{ colour: 'red' }, 'preview_invalid', 'colour'],
    [{ title: 5 }, 'preview_invalid', 'title'],
    [{ title: 'a\u0007b' }, 'preview_invalid', 'title'],
    [{ description: 'line\nbreak' }, 'preview_invalid', 'description'],
    [{ title: 'x'.repeat(121) }, 'preview_too_long', 'title'],
    [{ description: 'x'.repeat(301) }, 'preview_too_long', 'description'],
    [{ image: `https://e.example/${'x'.repeat(2048)}` }, 'preview_too_long', 'image'],
    [{ image: 'http://e.example/i.png' }, 'preview_image_invalid', 'image'],
    [{ image: '/i.png' }, 'preview_image_invalid', 'image'],
    [{ image: 'https://user:pw@e.example/i.png' }, 'preview_image_invalid', 'image'],
    [{ image: 'javascript:alert(1)' }, 'preview_image_invalid', 'image'],
  ])('refuses %j with %s', (value, key, path) => {
    const checked = checkPreview(value);
    expect(checked).toMatchObject(path === undefined ? { key } : { key, path });
    if (path === undefined) expect(checked).not.toHaveProperty('path');
  });

  it('takes the limits exactly', () => {
    expect(checkPreview({ title: 'x'.repeat(120), description: 'y'.repeat(300) })).toEqual({
      value: { title: 'x'.repeat(120), description: 'y'.repeat(300) },
    });
  });

  it('round-trips through its column; anything else there reads as none', () => {
    const preview = { title: 'T', image: 'https://e.example/i.png' };
    expect(previewFromColumn(previewToColumn(preview))).toEqual(preview);
    expect(previewToColumn(null)).toBeNull();
    expect(previewFromColumn(null)).toBeNull();
    expect(previewFromColumn('not json')).toBeNull();
    expect(previewFromColumn('[1]')).toBeNull();
    expect(previewFromColumn('{"title":5}')).toBeNull();
  });
});
