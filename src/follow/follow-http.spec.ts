import { isbot } from 'isbot';
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { compileTrust } from '../common/client-address';
import { BOT_ANSWERS_MAX, isBotAgent, visitorInput } from './follow-http';

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Twitterbot/1.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'curl/8.5.0',
  'facebookexternalhit/1.1',
];

describe('isBotAgent', () => {
  it("gives isbot's answer, the first time and from the kept answers", () => {
    for (let round = 0; round < 3; round++)
      for (const ua of AGENTS) expect(isBotAgent(ua), ua).toBe(isbot(ua));
    expect(AGENTS.map(isBotAgent)).toEqual([false, false, true, true, true, true]);
  });

  it('stays right past its bound and for user agents too long to keep', () => {
    const many = Array.from({ length: BOT_ANSWERS_MAX * 2 + 7 }, (_, i) =>
      i % 2 ? `Mozilla/5.0 (X11; Linux x86_64) Firefox/${i}.0` : `crawler-${i}/1.0 bot`,
    );
    for (const ua of many) expect(isBotAgent(ua)).toBe(isbot(ua));
    const long = `Mozilla/5.0 (Windows NT 10.0) ${'x'.repeat(600)} Googlebot/2.1`;
    expect(isBotAgent(long)).toBe(true);
    expect(isBotAgent(long.replace('Googlebot/2.1', 'Chrome/131.0'))).toBe(false);
  });
});

describe('visitorInput', () => {
  const request = (peer: string, headers: Record<string, string>) =>
    ({ method: 'GET', headers, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;
  const country = (peer: string, setting: Parameters<typeof compileTrust>[0]) =>
    visitorInput(
      request(peer, { 'cf-ipcountry': 'DE' }),
      peer,
      'cf-ipcountry',
      compileTrust(setting),
    ).visitor?.country;

  it('reads the country header only when the socket peer is a trusted proxy', () => {
    expect(country('10.1.2.3', ['10.0.0.0/8'])).toBe('DE');
    expect(country('127.0.0.1', ['10.0.0.0/8'])).toBeUndefined();
    expect(country('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe('DE');
    expect(country('203.0.113.9', 1)).toBe('DE'); // one hop: the peer is the proxy
    expect(country('203.0.113.9', false)).toBeUndefined();
    expect(
      visitorInput(
        request('10.1.2.3', {}),
        '10.1.2.3',
        'cf-ipcountry',
        compileTrust(['10.0.0.0/8']),
      ).visitor?.country,
    ).toBeUndefined();
  });
});
