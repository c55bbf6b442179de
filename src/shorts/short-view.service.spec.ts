import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { shortServices, storedShort as stored } from '../../test/support/short-services';
import { fieldsWith, SHORT_FIELDS } from '../shared/short-fields';
import { SHORT_VIEW, ShortDto } from './dto/short.dto';
import type { ShortEntity } from './short.entity';

/** The view of shorts with these targets on the blacklist. */
function service(blacklisted: readonly string[] = []) {
  return { shorts: shortServices({ isBlacklisted: (url) => blacklisted.includes(url) }).view };
}

describe('a short as the API shows it (ShortDto from the field table)', () => {
  it('has every shown field once, among its own properties', () => {
    for (const name of fieldsWith('shown')) {
      expect(
        SHORT_VIEW.filter((p) => p === name),
        name,
      ).toHaveLength(1);
    }
    expect(SHORT_VIEW).not.toContain('password');
  });

  it('documents the properties in the order of the answer', () => {
    const documented = Reflect.getMetadata(
      'swagger/apiModelPropertiesArray',
      ShortDto.prototype,
    ) as string[];
    expect(documented.map((p) => p.replace(/^:/, ''))).toEqual(SHORT_VIEW);
  });

  it('answers the owner’s view in the order answers have always had', () => {
    const dto = service().shorts.toDto(stored(), true, { visits: 7 });
    const always =
      'id code domain shortUrl name url hasPassword maxUses createdAt expireAt owner dangers';
    const owners = 'uses visits expiredUrl rules team tags preview qrStyle health';
    expect(Object.keys(dto)).toEqual(`${always} ${owners}`.split(' '));
    expect(Object.keys(dto)).toEqual(SHORT_VIEW);
    expect(dto).toMatchObject({
      domain: null, // this service's host ('' stored)
      url: 'https://example.com/target',
      expireAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiredUrl: 'https://example.com/ended',
      rules: [], // none stored as null
      tags: [], // none stored as null
      qrStyle: null,
      uses: 2,
      visits: 7,
    });
  });

  it('shows the tags as a list in their order', () => {
    const dto = service().shorts.toDto({ ...stored(), tags: 'Herbst,Sale' } as ShortEntity, true, {
      visits: 0,
    });
    expect(dto.tags).toEqual(['Herbst', 'Sale']);
  });

  it('shows strangers neither the owner’s fields nor a withheld target', () => {
    const dto = service().shorts.toDto(stored(), false);
    expect(dto.url).toBeNull();
    for (const name of [...fieldsWith('shown'), 'uses', 'visits', 'health'] as const) {
      const shown = (SHORT_FIELDS as Record<string, { shown?: { to: string } }>)[name]?.shown;
      expect(name in dto, name).toBe(shown !== undefined && shown.to !== 'owner');
    }
  });

  it('is dangerous when any url-typed field or a rule’s url is blacklisted', () => {
    expect(service().shorts.toDto(stored(), true).dangers).toBe(false);
    expect(service(['https://example.com/ended']).shorts.toDto(stored(), true).dangers).toBe(true);
    const ruled = { ...stored(), rules: [{ conditions: [], url: 'https://bad.example/' }] };
    const dto = service(['https://bad.example/']).shorts.toDto(ruled as ShortEntity, true);
    expect(dto.dangers).toBe(true);
  });

  it('dangers: flagged, or a blacklisted url, rule url or expiredUrl', () => {
    const short = (over: Partial<ShortEntity>) =>
      ({
        id: 'id',
        code: 'c',
        domain: '',
        name: null,
        url: 'https://example.com/',
        passwordHash: null,
        maxUses: null,
        createdAt: new Date(0),
        expireAt: null,
        owner: null,
        dangerous: false,
        expiredUrl: null,
        rules: null,
        ...over,
      }) as unknown as ShortEntity;
    const { view } = shortServices({ isBlacklisted: (url) => url.includes('bad.example') });
    const dangers = (over: Partial<ShortEntity>) => view.toDto(short(over), true).dangers;
    expect(dangers({})).toBe(false);
    expect(dangers({ dangerous: true })).toBe(true);
    expect(dangers({ url: 'https://bad.example/' })).toBe(true);
    expect(dangers({ expiredUrl: 'https://bad.example/over' })).toBe(true);
    expect(dangers({ expiredUrl: 'https://fine.example/over' })).toBe(false);
    const rule = (url: string) => ({ url, conditions: [{ type: 'os' as const, value: 'ios' }] });
    expect(dangers({ rules: [rule('https://fine.example/'), rule('https://bad.example/')] })).toBe(
      true,
    );
    expect(dangers({ rules: [rule('https://fine.example/')] })).toBe(false);
  });
});
