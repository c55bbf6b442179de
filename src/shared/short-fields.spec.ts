import { describe, expect, it } from 'vitest';
import {
  EXPORT_COLUMNS,
  fieldsWith,
  OTHER_FIELDS,
  placeFields,
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldSpec,
} from './short-fields';

describe('the field table: what the output side derives', () => {
  it('places the fields an order does not name at OTHER_FIELDS, in the table order', () => {
    expect(placeFields(['id', 'code', OTHER_FIELDS, 'health'], ['url', 'code', 'name'])).toEqual([
      'id',
      'code',
      'url',
      'name',
      'health',
    ]);
    expect(placeFields(['id', OTHER_FIELDS], [])).toEqual(['id']);
  });

  it('finds the rows that say something, in the table order', () => {
    const exported = fieldsWith('exported');
    expect(exported).toEqual(
      SHORT_FIELD_NAMES.filter((n) => (SHORT_FIELDS[n] as ShortFieldSpec).exported),
    );
    expect(exported).not.toContain('password');
    expect(fieldsWith('required')).toEqual(['url']);
  });

  it('exports every row with an export column, and no other field', () => {
    for (const name of SHORT_FIELD_NAMES) {
      const spec: ShortFieldSpec = SHORT_FIELDS[name];
      expect(EXPORT_COLUMNS.includes(name as never), name).toBe(spec.exported === true);
    }
  });

  it('lets every exported field be imported back (its aliases)', () => {
    for (const name of fieldsWith('exported'))
      expect(SHORT_FIELDS[name].importAliases.length, name).toBeGreaterThan(0);
  });
});
