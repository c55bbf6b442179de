import { describe, expect, it } from 'vitest';
import { cutUsername, NAV_ITEMS, visibleNavItems, type NavItem } from './nav';

describe('top bar markers', () => {
  const items: NavItem[] = [
    { to: '/', label: 'Start' },
    { to: '/a', label: 'A', requireLogin: true },
    { to: '/b', label: 'B', requireAdmin: true },
    { to: '/c', label: 'C', requireAnonymous: true },
    { to: '/d', label: 'D', hide: 'x' },
  ];
  const labels = (ctx: Parameters<typeof visibleNavItems>[1]) =>
    visibleNavItems(items, ctx).map((i) => i.label);

  it('anonymous', () => {
    expect(labels({ authenticated: false, admin: false, flags: {} })).toEqual(['Start', 'C', 'D']);
  });
  it('logged in, admin, flag hides', () => {
    expect(labels({ authenticated: true, admin: true, flags: { x: true } })).toEqual([
      'Start',
      'A',
      'B',
    ]);
  });
  it('the real top bar: Eigene Shorts needs login', () => {
    expect(
      visibleNavItems(NAV_ITEMS, { authenticated: false, admin: false, flags: {} }).map(
        (i) => i.label,
      ),
    ).toEqual(['Start', 'Link verfolgen']);
  });
  it('cuts user names at 20 characters', () => {
    expect(cutUsername('a'.repeat(25))).toBe(`${'a'.repeat(20)}…`);
    expect(cutUsername('kurz')).toBe('kurz');
  });
});
