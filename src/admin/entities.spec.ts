import { describe, expect, it, vi } from 'vitest';
import type { Actor } from '../common/actor';
import { fieldsWith, SHORT_FIELD_NAMES, SHORT_FIELDS } from '../shared/short-fields';
import { adminEntities, type AdminOwners } from './entities';

const admin: Actor = { id: 'a1', username: 'admin', roles: ['ROLE_ADMIN'], activated: true };

function shortsEntity() {
  const shorts = { adminEdit: vi.fn(async () => {}), setDangerReason: vi.fn(async () => {}) };
  const reports = { setDangerous: vi.fn(async () => {}) };
  const owners = { shorts, reports } as unknown as AdminOwners;
  const entity = adminEntities(owners).find((e) => e.name === 'shorts');
  if (!entity) throw new Error('no shorts entity');
  return { entity, shorts, reports };
}

describe('the admin area of shorts, from the field table', () => {
  it('lists every field of the table (a password as hasPassword only)', () => {
    const names = shortsEntity().entity.fields.map((f) => f.name);
    for (const field of SHORT_FIELD_NAMES) {
      if (field === 'password') expect(names).not.toContain(field);
      else expect(names, field).toContain(field);
    }
    expect(names).toContain('hasPassword');
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads each field from its column; the rows with `admin.edit` are edited by the owner’s checks', () => {
    const { fields } = shortsEntity().entity;
    for (const name of fieldsWith('admin')) {
      const f = fields.find((x) => x.name === name);
      const edit = SHORT_FIELDS[name].admin as { edit?: true };
      expect(f?.property, name).toBe(SHORT_FIELDS[name].column);
      expect(!!f?.editable, name).toBe(edit.edit === true);
      expect(!!f?.checkedByOwner, name).toBe(edit.edit === true);
    }
  });

  it('hands a short’s fields to the owner’s edit and the flag to the reports', async () => {
    const { entity, shorts, reports } = shortsEntity();
    const origin = { protocol: 'https', host: 'short.example', client: '127.0.0.1' };
    await entity.update?.(
      'id-1',
      { name: 'x', expiredUrl: 'https://example.com/', dangerous: true },
      { actor: admin, existing: { dangerReason: 'SPAM' }, origin },
    );
    expect(shorts.adminEdit).toHaveBeenCalledWith(
      'id-1',
      { name: 'x', expiredUrl: 'https://example.com/' },
      admin,
      origin,
    );
    expect(reports.setDangerous).toHaveBeenCalledWith('id-1', true, 'SPAM');
  });

  it('leaves the owner’s edit out when no field of the table changes', async () => {
    const { entity, shorts } = shortsEntity();
    await entity.update?.('id-1', { dangerReason: 'OTHER' }, { actor: admin, existing: {} });
    expect(shorts.adminEdit).not.toHaveBeenCalled();
    expect(shorts.setDangerReason).toHaveBeenCalledWith('id-1', 'OTHER');
  });
});

describe('the admin area of link pages', () => {
  it('lists the searchable fields and the link count, is not editable, and deletes through the pages', async () => {
    const pages = { delete: vi.fn(async () => {}) };
    const entity = adminEntities({ pages } as unknown as AdminOwners).find(
      (e) => e.name === 'pages',
    );
    if (!entity) throw new Error('no pages entity');
    const names = entity.fields.map((f) => f.name);
    for (const name of 'id slug title theme links owner team createdAt'.split(' ')) {
      expect(names, name).toContain(name);
    }
    expect(entity.fields.find((f) => f.name === 'theme')?.values).toEqual([
      'light',
      'dark',
      'auto',
    ]);
    expect(entity.fields.some((f) => f.editable)).toBe(false);
    expect(entity.update).toBeUndefined();
    await entity.remove?.('page-1', admin);
    expect(pages.delete).toHaveBeenCalledWith('page-1', admin);
  });
});
