import type { AccessPolicy } from '../access/access-policy';
import { describe, expect, it } from 'vitest';
import type { ShortDto } from '../shorts/dto/short.dto';
import type { ShortCreateService } from '../shorts/short-create.service';
import type { ShortViewService } from '../shorts/short-view.service';
import { EXPORT_COLUMNS, fieldsWith } from '../shared/short-fields';
import { TransferService } from './transfer.service';

/** The owner's view of one short, as ShortViewService.toDto answers it. */
const view = {
  id: 'id-1',
  code: 'abc',
  domain: null,
  shortUrl: 'https://short.example/s/abc',
  name: 'Name',
  url: 'https://example.com/',
  hasPassword: false,
  maxUses: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  expireAt: null,
  owner: { id: 'u1', username: 'alice' },
  dangers: false,
  uses: 3,
  visits: 4,
  expiredUrl: 'https://example.com/ended',
  rules: [{ conditions: [{ type: 'device', value: 'mobile' }], url: 'https://m.example.com/' }],
  health: { state: 'unknown', status: null, checkedAt: null, failingSince: null },
} as unknown as ShortDto;

async function exported(): Promise<Array<Record<string, unknown>>> {
  const shorts = {
    ownedAfter: async (_space: unknown, after: string | null) => ({
      page: after ? [] : [{ id: 'id-1' }],
      visits: new Map([['id-1', 4]]),
    }),
    toDto: () => view,
  } as unknown as ShortViewService;
  const transfer = new TransferService({} as ShortCreateService, shorts, {} as AccessPolicy);
  let text = '';
  for await (const chunk of transfer.exportJson({ ownerId: 'u1' })) text += String(chunk);
  return JSON.parse(text) as Array<Record<string, unknown>>;
}

describe('the export, from the field table', () => {
  it('writes exactly EXPORT_COLUMNS, in their order, with every exported field', async () => {
    const [row] = await exported();
    expect(Object.keys(row)).toEqual([...EXPORT_COLUMNS]);
    for (const name of fieldsWith('exported')) expect(Object.keys(row), name).toContain(name);
    expect(row).toMatchObject({ url: 'https://example.com/', uses: 3, visits: 4, domain: null });
  });

  it('writes rules as JSON text (none as null) and the other fields as the owner sees them', async () => {
    const [row] = await exported();
    expect(JSON.parse(row.rules as string)).toEqual(view.rules);
    expect(row.expiredUrl).toBe('https://example.com/ended');
  });
});
