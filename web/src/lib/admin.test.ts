import { describe, expect, it } from 'vitest';
import {
  cellText,
  flattenInfo,
  logsStartDate,
  rowId,
  toBody,
  toForm,
  toLocalInput,
  type AdminEntity,
} from './admin';
import { adminEntity, adminField, editableField } from '../test-fixtures';

const shorts = adminEntity('shorts', 'Short links', [
  adminField('id', 'keyword', { description: 'UUID' }),
  editableField('name', 'text', { nullable: true }),
  adminField('url', 'text'),
  editableField('maxUses', 'number', { nullable: true }),
  editableField('expireAt', 'date', { nullable: true }),
  editableField('dangerous', 'boolean'),
  editableField('dangerReason', 'enum', { nullable: true, values: ['SPAM', 'OTHER'] }),
]);
const users = adminEntity('users', 'Users', [
  adminField('id', 'keyword'),
  adminField('username', 'text'),
  editableField('activated', 'boolean'),
  editableField('roles', 'list', { values: ['ROLE_USER', 'ROLE_ADMIN'] }),
]);
const MSG = { required: 'req', wholeNumber: 'num', invalidDate: 'date' };
const row = {
  id: 'a1',
  name: 'Alt',
  url: 'https://x.example/',
  maxUses: 5,
  expireAt: '2030-01-02T03:04:00.000Z',
  dangerous: false,
  dangerReason: null,
};

describe('admin cells', () => {
  const L = { yes: 'Ja', no: 'Nein', empty: '–' };
  it('shows booleans, lists, empties and plain values', () => {
    expect(cellText({ type: 'boolean' }, true, L)).toBe('Ja');
    expect(cellText({ type: 'boolean' }, false, L)).toBe('Nein');
    expect(cellText({ type: 'list' }, ['ROLE_USER', 'ROLE_ADMIN'], L)).toBe(
      'ROLE_USER, ROLE_ADMIN',
    );
    expect(cellText({ type: 'list' }, [], L)).toBe('–');
    expect(cellText({ type: 'text' }, null, L)).toBe('–');
    expect(cellText({ type: 'number' }, 0, L)).toBe('0');
    expect(cellText({ type: 'date' }, '2030-01-02T03:04:00.000Z', L)).toMatch(/2030/);
  });
  it('takes the first field as the id', () => {
    expect(rowId(shorts, row)).toBe('a1');
  });
});

describe('admin edit form', () => {
  it('holds only the editable fields, typed for the inputs', () => {
    const f = toForm(shorts, row);
    expect(Object.keys(f).sort()).toEqual([
      'dangerReason',
      'dangerous',
      'expireAt',
      'maxUses',
      'name',
    ]);
    expect(f.maxUses).toBe('5');
    expect(f.dangerous).toBe(false);
    expect(f.dangerReason).toBe('');
    expect(f.expireAt).toBe(toLocalInput(row.expireAt));
    expect(toForm(users, { id: 'u', roles: ['ROLE_USER'], activated: true })).toEqual({
      activated: true,
      roles: ['ROLE_USER'],
    });
  });
  it('sends only the changed fields, typed for the server', () => {
    const f = {
      ...toForm(shorts, row),
      name: 'Neu',
      maxUses: '',
      dangerous: true,
      dangerReason: 'SPAM',
    };
    expect(toBody(shorts, f, row, MSG)).toEqual({
      ok: true,
      body: { name: 'Neu', maxUses: null, dangerous: true, dangerReason: 'SPAM' },
    });
    expect(toBody(shorts, toForm(shorts, row), row, MSG)).toEqual({ ok: true, body: {} });
  });
  it('turns a local date-time into an ISO instant', () => {
    const f = { ...toForm(shorts, row), expireAt: '2031-06-01T12:30' };
    const r = toBody(shorts, f, row, MSG);
    expect(r.ok && r.body.expireAt).toBe(new Date('2031-06-01T12:30').toISOString());
  });
  it('refuses non-whole numbers and empty required fields', () => {
    expect(toBody(shorts, { ...toForm(shorts, row), maxUses: '1.5' }, row, MSG)).toEqual({
      ok: false,
      errors: { maxUses: 'num' },
    });
    expect(toBody(shorts, { ...toForm(shorts, row), maxUses: '0' }, row, MSG)).toEqual({
      ok: false,
      errors: { maxUses: 'num' },
    });
    const blacklist: AdminEntity = {
      ...shorts,
      name: 'blacklist',
      creatable: true,
      fields: [adminField('id', 'keyword'), editableField('value', 'text')],
    };
    expect(toBody(blacklist, { value: '  ' }, null, MSG)).toEqual({
      ok: false,
      errors: { value: 'req' },
    });
    expect(toBody(blacklist, { value: ' böse.example ' }, null, MSG)).toEqual({
      ok: true,
      body: { value: 'böse.example' },
    });
  });
  it('sends role lists and switches', () => {
    const u = { id: 'u', username: 'x', activated: true, roles: ['ROLE_USER'] };
    expect(toBody(users, { activated: false, roles: ['ROLE_USER', 'ROLE_ADMIN'] }, u, MSG)).toEqual(
      {
        ok: true,
        body: { activated: false, roles: ['ROLE_USER', 'ROLE_ADMIN'] },
      },
    );
  });
});

describe('logs start date', () => {
  it('is an ISO instant, or no filter', () => {
    expect(logsStartDate('')).toBeUndefined();
    expect(logsStartDate('kaputt')).toBeUndefined();
    expect(logsStartDate('2026-11-22T10:00')).toBe(new Date('2026-11-22T10:00').toISOString());
  });
});

describe('management info', () => {
  it('flattens nested objects into dotted keys', () => {
    expect(
      flattenInfo({
        app: { name: 'url-shorter', version: '1.7.1' },
        build: { time: 't' },
        tags: ['a', 'b'],
        n: null,
      }),
    ).toEqual([
      ['app.name', 'url-shorter'],
      ['app.version', '1.7.1'],
      ['build.time', 't'],
      ['tags', 'a, b'],
      ['n', 'null'],
    ]);
  });
});
