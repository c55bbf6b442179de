import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlPage, serveHtml, startFakeSite, type FakeSite } from '../../test/support/fake-site';
import { DefaultAddressPolicy } from './address-policy';
import { MetadataService } from './metadata.service';
import { DEFAULT_FETCH_LIMITS, systemResolver } from './safe-fetch';

describe('MetadataService', () => {
  let site: FakeSite;
  let service: MetadataService;

  beforeAll(async () => {
    site = await startFakeSite({
      '/ok': (req, res) => setTimeout(() => serveHtml(htmlPage('<title>ok</title>'))(req, res), 50),
      '/text': serveHtml('plain', 'text/plain'),
    });
    service = new MetadataService(new DefaultAddressPolicy([80, 443], true), systemResolver, {
      ...DEFAULT_FETCH_LIMITS,
      userAgent: 'test',
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('shares one fetch between concurrent calls and caches the result', async () => {
    const [a, b] = await Promise.all([
      service.forUrl(`${site.url}/ok`),
      service.forUrl(`${site.url}/ok`),
    ]);
    expect(a).toEqual({ title: 'ok', description: null, image: null });
    expect(b).toEqual(a);
    await service.forUrl(`${site.url}/ok`);
    expect(site.hits('/ok')).toBe(1);
  });

  it('caches failures too (briefly) and never throws', async () => {
    expect(await service.forUrl(`${site.url}/text`)).toEqual({
      title: null,
      description: null,
      image: null,
    });
    expect(await service.forUrl(`${site.url}/text`)).toEqual({
      title: null,
      description: null,
      image: null,
    });
    expect(site.hits('/text')).toBe(1);
    expect(await service.forUrl('not a url')).toEqual({
      title: null,
      description: null,
      image: null,
    });
  });
});
