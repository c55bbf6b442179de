import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INVITE_PREFIX, inviteHash, newInviteToken, teamName } from './teams.service';

describe('teamName', () => {
  it('trims and accepts 1 to 64 characters, counted as code points', () => {
    expect(teamName('  Marketing ')).toBe('Marketing');
    expect(teamName('x'.repeat(64))).toBe('x'.repeat(64));
    expect(teamName('😀'.repeat(64))).toBe('😀'.repeat(64));
  });

  it('refuses empty, blank and longer names', () => {
    expect(teamName('')).toBeNull();
    expect(teamName(' \t\n ')).toBeNull();
    expect(teamName('x'.repeat(65))).toBeNull();
    expect(teamName('😀'.repeat(65))).toBeNull();
  });
});

describe('invite tokens', () => {
  it('carry 256 random bits behind a recognisable prefix', () => {
    const a = newInviteToken();
    const b = newInviteToken();
    expect(a).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
    expect(a.startsWith(INVITE_PREFIX)).toBe(true);
    expect(Buffer.from(a.slice(INVITE_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('are stored as their SHA-256 in hex', () => {
    const token = newInviteToken();
    expect(inviteHash(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(inviteHash(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
