import { SHORT_FIELD_NAMES } from '@shared/short-fields';
import { describe, expect, it } from 'vitest';
import type { Short } from '../api/client';
import { changesOf, createBody, emptyValues, expiryText, fieldsOf } from './short-form';

const short = {
  id: 'id-1',
  code: 'abc',
  domain: 'go.example.com',
  shortUrl: 'https://go.example.com/abc',
  name: null,
  url: 'https://example.com/',
  hasPassword: true,
  maxUses: 5,
  createdAt: '2026-01-01T00:00:00.000Z',
  expireAt: '2027-12-31T17:30:00.000Z',
  owner: null,
  dangers: false,
  expiredUrl: 'https://example.com/ended',
  rules: [],
  tags: ['Herbst', 'Sale'],
  qrStyle: { fg: '1d3557', bg: 'f1faee', ec: 'Q', margin: 2 },
} as unknown as Short;

describe('fieldsOf (the edit form from the field table)', () => {
  it('prefills every field of the table by its type, never the password', () => {
    const values = fieldsOf(short);
    expect(Object.keys(values).sort()).toEqual([...SHORT_FIELD_NAMES, 'removePassword'].sort());
    expect(values).toMatchObject({
      url: 'https://example.com/',
      password: '',
      code: 'abc',
      name: '',
      expireAt: expiryText(short.expireAt),
      maxUses: '5',
      domain: 'go.example.com',
      expiredUrl: 'https://example.com/ended',
      rules: [],
      tags: 'Herbst, Sale',
      removePassword: false,
    });
  });

  it('sends nothing when nothing was changed (the QR style is the QR dialog’s: never sent)', () => {
    expect(changesOf(short, fieldsOf(short), new Date(short.expireAt as string))).toEqual({});
    const body = createBody({ ...emptyValues(), url: 'https://example.com' }, null, true);
    expect(Object.hasOwn(body, 'qrStyle')).toBe(false);
  });

  it('reads the tags as a comma-separated list: all of them when they differ, null when none', () => {
    const at = new Date(short.expireAt as string);
    const edit = (tags: string) => changesOf(short, { ...fieldsOf(short), tags }, at);
    expect(edit(' Herbst ,Sale, ')).toEqual({});
    expect(edit('Herbst, Neu')).toEqual({ tags: ['Herbst', 'Neu'] });
    expect(edit(' ')).toEqual({ tags: null });
    const body = createBody(
      { ...emptyValues(), url: 'https://example.com', tags: 'a, b' },
      null,
      true,
    );
    expect(body.tags).toEqual(['a', 'b']);
  });
});
