import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { GENERIC_ERROR_KEYS, isSpecificErrorKey } from '../../src/shared/error-keys';
import { useTestApp } from '../support/app';
import { useLogin } from '../support/login';
import { expectProblem } from '../support/problem';

/**
 * Every error answer names what went wrong by a key of its own, never by one that only repeats its
 * status (GENERIC_ERROR_KEYS): a sweep of refused requests across the routes that used to answer
 * with their status's key. The type side: every thrown error takes a SpecificErrorKey
 * (src/common/errors.ts); expectProblem and the API fuzz check every other answer the same way.
 */
describe('specific error keys', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const admin = useLogin(t, 'admin');

  const blacklist = (kind: string, value: string) =>
    admin.put(`/api/admin/entity/blacklist/${randomUUID()}`, { kind, value, reason: null });

  it('the generic keys are exactly the status keys a more specific reason always exists for', () => {
    expect(GENERIC_ERROR_KEYS).toEqual(expect.arrayContaining(['bad_request', 'not_found']));
    for (const key of GENERIC_ERROR_KEYS) expect(isSpecificErrorKey(key)).toBe(false);
    expect(isSpecificErrorKey('unauthorized')).toBe(true);
    expect(isSpecificErrorKey('no_such_key')).toBe(false);
  });

  it('answers each refusal with its own key', async () => {
    const cases: Array<[string, () => Promise<Response>, number, string]> = [
      // the blacklist's validation
      ['blacklist regex', () => blacklist('regex', '(unclosed'), 400, 'blacklist_regex_invalid'],
      ['blacklist empty', () => blacklist('regex', '  '), 400, 'blacklist_empty'],
      ['blacklist host', () => blacklist('host', 'not a host'), 400, 'blacklist_host_invalid'],
      // paging (own shorts and the admin's lists)
      ['sort field', () => admin.fetch('/api/code?sort=nope,asc'), 400, 'sort_field_unknown'],
      ['sort shape', () => admin.fetch('/api/code?sort=name,asc,x'), 400, 'sort_invalid'],
      ['sort direction', () => admin.fetch('/api/code?sort=name,up'), 400, 'sort_invalid'],
      ['page', () => admin.fetch('/api/code?page=-1'), 400, 'paging_invalid'],
      [
        'admin sort field',
        () => admin.post('/api/admin/entity/blacklist/search?sort=nope,asc', {}),
        400,
        'sort_field_unknown',
      ],
      // management
      [
        'logger level',
        () => admin.post('/management/loggers/http', { configuredLevel: 'LOUD' }),
        400,
        'log_level_invalid',
      ],
      [
        'logger name',
        () => admin.fetch('/management/loggers/no%20spaces'),
        400,
        'logger_name_invalid',
      ],
      [
        'logs start',
        () => admin.fetch('/management/logs?startDate=yesterday'),
        400,
        'start_date_invalid',
      ],
      // the dev login's username
      ['username', () => t.fetch('/api/auth/dev?username=a%20b'), 400, 'username_invalid'],
      // the admin area's unknown entity
      [
        'admin entity',
        () => admin.post('/api/admin/entity/nope/search', {}),
        404,
        'entity_unknown',
      ],
      // a path parameter that must be a UUID
      ['uuid', () => admin.delete('/api/code/not-a-uuid'), 400, 'id_invalid'],
      ['uuid report', () => admin.fetch('/api/code/not-a-uuid/reports'), 400, 'id_invalid'],
      // a path parameter that is no valid percent-encoding
      ['path', () => admin.delete('/api/admin/entity/blacklist/%E0%A4%A'), 400, 'path_invalid'],
      // an API path no route matches
      ['route', () => t.fetch('/api/no-such-route'), 404, 'route_unknown'],
      // a posted follow of a code that is not even valid percent-encoding
      ['follow code', () => t.post('/s/%E0%A4%A', {}), 404, 'entity_not_exists'],
    ];
    for (const [name, call, status, key] of cases) {
      const body = await expectProblem(await call(), status);
      expect(body.errorKey, name).toBe(key);
    }
  });

  it('names a twice-added blacklist entry as such', async () => {
    expect((await blacklist('host', 'twice.example')).status).toBe(201);
    expect((await expectProblem(await blacklist('host', 'twice.example'), 409)).errorKey).toBe(
      'blacklist_exists',
    );
  });

  it('answers a request the HTTP parser refuses with request_malformed', async () => {
    const url = new URL(t.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('NOT A REQUEST\r\n\r\n');
      });
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { errorKey: string };
    expect(body.errorKey).toBe('request_malformed');
  });
});
