import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { clientAddress, compileTrust, type TrustProxySetting } from './client-address';

function req(socket: string, forwarded?: string): IncomingMessage {
  return {
    socket: { remoteAddress: socket },
    connection: { remoteAddress: socket },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  } as unknown as IncomingMessage;
}

const at = (setting: TrustProxySetting, socket: string, forwarded?: string) =>
  clientAddress(req(socket, forwarded), compileTrust(setting));

describe('clientAddress', () => {
  it('without trusted proxies is the socket peer, whatever the header says', () => {
    expect(at(false, '10.0.0.5', '1.2.3.4')).toBe('10.0.0.5');
  });

  it('with a hop count takes that many entries from the right, never the client-chosen left end', () => {
    expect(at(1, '10.0.0.5', '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
    expect(at(2, '10.0.0.5', '6.6.6.6, 198.51.100.7, 10.0.0.9')).toBe('198.51.100.7');
    // Fewer entries than hops: the left-most there is.
    expect(at(3, '10.0.0.5', '198.51.100.7')).toBe('198.51.100.7');
  });

  it('with a trusted list stops at the right-most untrusted address', () => {
    const list = ['loopback', '10.0.0.0/8'];
    expect(at(list, '127.0.0.1', '6.6.6.6, 198.51.100.7, 10.1.2.3')).toBe('198.51.100.7');
    // A peer that is not a trusted proxy is the client; its header is ignored.
    expect(at(list, '203.0.113.9', '6.6.6.6')).toBe('203.0.113.9');
    expect(at(['::1'], '::1', '2001:db8::1')).toBe('2001:db8::1');
  });

  it('without X-Forwarded-For is the socket peer under every setting, as proxyaddr answers', () => {
    for (const setting of [false, 1, 3, ['loopback', '10.0.0.0/8']] as TrustProxySetting[]) {
      expect(at(setting, '127.0.0.1')).toBe('127.0.0.1');
      expect(at(setting, '2001:db8::7')).toBe('2001:db8::7');
      expect(at(setting, '')).toBe('unknown');
      expect(proxyaddr(req('203.0.113.4'), compileTrust(setting))).toBe(at(setting, '203.0.113.4'));
    }
  });
});

describe('TRUST_PROXY', () => {
  it('accepts false, a hop count and address lists; true is one hop with a warning', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.1.1',
    ]);
    const legacy = loadConfig({ TRUST_PROXY: 'true' });
    expect(legacy.trustProxy).toBe(1);
    expect(legacy.warnings.join()).toMatch(/TRUST_PROXY=true is deprecated/);
    expect(loadConfig({ TRUST_PROXY: '1' }).warnings).toEqual([]);
  });

  it('refuses values that are neither', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY must be/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY must be/);
    expect(() => loadConfig({ TRUST_PROXY: '99' })).toThrow(/at most 32/);
  });
});
