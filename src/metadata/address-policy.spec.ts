import { describe, expect, it } from 'vitest';
import { DefaultAddressPolicy, classifyAddress } from './address-policy';

const REFUSED: Record<string, string[]> = {
  unspecified: ['0.0.0.0', '0.1.2.3', '::'],
  'private (RFC 1918)': [
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.1',
    '192.168.255.255',
  ],
  'link-local': ['169.254.0.1', '169.254.169.254', 'fe80::1', 'febf::ffff'],
  CGNAT: ['100.64.0.1', '100.127.255.254'],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::101'],
  'unique-local': ['fc00::1', 'fd12:3456:789a::1'],
  broadcast: ['255.255.255.255'],
  reserved: [
    '240.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '192.0.0.8',
    '2001:db8::1',
    '3fff::1',
  ],
  'IPv4-mapped IPv6 of special ranges': [
    '::ffff:10.0.0.1',
    '::ffff:a00:1',
    '::ffff:169.254.169.254',
    '::ffff:192.168.1.1',
    '::ffff:100.64.0.1',
    '::ffff:0.0.0.0',
    '::ffff:224.0.0.1',
    '::ffff:255.255.255.255',
  ],
  'IPv4-compatible and other IPv4-embedding IPv6 forms': [
    '::127.0.0.1',
    '::7f00:1',
    '::10.0.0.1',
    '::8.8.8.8',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '2002:7f00:1::1',
    '2001::1',
    '::ffff:0:7f00:1',
  ],
  'outside global unicast / odd forms': [
    '4000::1',
    'fe80::1%eth0',
    'localhost',
    '2130706433',
    '0x7f.0.0.1',
    '127.1',
    '',
  ],
};

describe('classifyAddress', () => {
  for (const [name, addresses] of Object.entries(REFUSED)) {
    it(`refuses ${name}`, () => {
      for (const a of addresses) expect(classifyAddress(a), a).toBe('refused');
    });
  }

  it('calls IPv4 and IPv6 loopback, including the IPv4-mapped form, loopback', () => {
    for (const a of [
      '127.0.0.1',
      '127.255.255.254',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(classifyAddress(a), a).toBe('loopback');
    }
  });

  it('allows public addresses', () => {
    for (const a of [
      '1.1.1.1',
      '8.8.8.8',
      '93.184.216.34',
      '172.15.255.255',
      '172.32.0.1',
      '100.63.255.255',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001::200e',
      '::ffff:8.8.8.8',
    ]) {
      expect(classifyAddress(a), a).toBe('public');
    }
  });
});

describe('DefaultAddressPolicy', () => {
  it('allows public addresses only on the allowed ports', () => {
    const p = new DefaultAddressPolicy([80, 443]);
    expect(p.allows('93.184.216.34', 80)).toBe(true);
    expect(p.allows('93.184.216.34', 443)).toBe(true);
    expect(p.allows('2606:4700:4700::1111', 443)).toBe(true);
    expect(p.allows('93.184.216.34', 8080)).toBe(false);
    expect(p.allows('93.184.216.34', 22)).toBe(false);
    expect(new DefaultAddressPolicy([8443]).allows('93.184.216.34', 8443)).toBe(true);
  });

  it('refuses loopback without the test switch, on any port', () => {
    const p = new DefaultAddressPolicy([80, 443]);
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(p.allows(a, 80), a).toBe(false);
      expect(p.allows(a, 5000), a).toBe(false);
    }
  });

  it('with the test switch allows loopback on any port but nothing else internal', () => {
    const p = new DefaultAddressPolicy([80, 443], true);
    expect(p.allows('127.0.0.1', 51234)).toBe(true);
    expect(p.allows('::1', 80)).toBe(true);
    expect(p.allows('::ffff:127.0.0.1', 3000)).toBe(true);
    for (const a of [
      '10.0.0.1',
      '169.254.169.254',
      '192.168.1.1',
      '100.64.0.1',
      'fe80::1',
      'fd00::1',
      '0.0.0.0',
      '::',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
    ]) {
      expect(p.allows(a, 80), a).toBe(false);
    }
    expect(p.allows('93.184.216.34', 8080)).toBe(false);
  });
});
