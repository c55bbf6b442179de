import { describe, expect, it } from 'vitest';
import { buildShareXConfig, SHAREX_FILE_NAME, shareXFileText } from './sharex';

describe('ShareX config', () => {
  const cfg = buildShareXConfig('https://kurz.example/', 'usk_abc123');

  it('is a URL-shortener custom uploader posting JSON to the API with the bearer key', () => {
    expect(cfg).toEqual({
      Version: '14.0.0',
      Name: 'URL-Shorter (kurz.example)',
      DestinationType: 'URLShortener',
      RequestMethod: 'POST',
      RequestURL: 'https://kurz.example/api/code/',
      Headers: { Authorization: 'Bearer usk_abc123' },
      Body: 'JSON',
      Data: '{"url":"{input}"}',
      URL: 'https://kurz.example/s/{json:code}',
      DeletionURL: 'https://kurz.example/s/{json:code}/delete',
      ErrorMessage: '{json:error}',
    });
  });

  it('Data stays valid JSON once ShareX puts the input in', () => {
    expect(JSON.parse(cfg.Data.replace('{input}', 'https://example.com/x'))).toEqual({
      url: 'https://example.com/x',
    });
  });

  it('the file text parses back to the same config; file name ShareX.sxcu', () => {
    expect(JSON.parse(shareXFileText(cfg))).toEqual(cfg);
    expect(SHAREX_FILE_NAME).toBe('ShareX.sxcu');
  });

  it('works with a base URL carrying a path and no trailing slash', () => {
    const c = buildShareXConfig('http://127.0.0.1:8080/kurz', 'k');
    expect(c.RequestURL).toBe('http://127.0.0.1:8080/kurz/api/code/');
    expect(c.URL).toBe('http://127.0.0.1:8080/kurz/s/{json:code}');
  });

  it('with a domain: creates the shorts there, links on the domain, no deletion link', () => {
    const c = buildShareXConfig('https://kurz.example/', 'k', undefined, 'go.example.com');
    expect(c.Name).toBe('URL-Shorter (go.example.com)');
    expect(c.RequestURL).toBe('https://kurz.example/api/code/');
    expect(JSON.parse(c.Data.replace('{input}', 'https://example.com/x'))).toEqual({
      url: 'https://example.com/x',
      domain: 'go.example.com',
    });
    expect(c.URL).toBe('{json:shortUrl}');
    expect(c.DeletionURL).toBe('');
  });
});
