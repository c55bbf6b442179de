import { describe, expect, it } from 'vitest';
import { FlagsService } from '../../src/flags/flags.service';
import { useTestApp } from '../support/app';

describe('embedded flag service, defaults', () => {
  const t = useTestApp();

  it('lists only enabled toggles in the Unleash frontend-API format', async () => {
    const res = await t.fetch('/api/frontend?appName=url-shorter', {
      headers: { authorization: 'url-shorter-embedded' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      toggles: [
        {
          name: 'url.frontend.experimentSwitch',
          enabled: true,
          variant: { name: 'disabled', enabled: false },
        },
        // On by default: a first visit follows the browser's languages (CONTRACT "Language").
        {
          name: 'url.frontend.languageSwitch',
          enabled: true,
          variant: { name: 'disabled', enabled: false },
        },
        {
          name: 'url.frontend.statistics',
          enabled: true,
          variant: { name: 'disabled', enabled: false },
        },
      ],
    });
  });

  it('reflects runtime changes of the flag store', async () => {
    const flags = t.app.get(FlagsService);
    flags.set('url.frontend.statistics', false);
    flags.set('url.frontend.maintenance', true);
    flags.set('url.frontend.experimentSwitch', false);
    flags.set('url.frontend.languageSwitch', false);
    const body = (await (await t.fetch('/api/frontend')).json()) as { toggles: { name: string }[] };
    expect(body.toggles.map((x) => x.name)).toEqual(['url.frontend.maintenance']);
  });
});

describe('embedded flag service, FLAGS configured', () => {
  const t = useTestApp({
    FLAGS:
      'maintenance=on,url.frontend.shutdown=on,experimentSwitch=off,statistics=off,languageSwitch=off',
  });

  it('answers the configured flags', async () => {
    const body = (await (await t.fetch('/api/frontend')).json()) as {
      toggles: { name: string; enabled: boolean }[];
    };
    expect(body.toggles).toEqual([
      {
        name: 'url.frontend.maintenance',
        enabled: true,
        variant: { name: 'disabled', enabled: false },
      },
      {
        name: 'url.frontend.shutdown',
        enabled: true,
        variant: { name: 'disabled', enabled: false },
      },
    ]);
  });
});
