import { describe, expect, it } from 'vitest';
import { avatarSrc } from './avatar';

describe('avatar (gravatar consent)', () => {
  it('replaces gravatar images by the default icon without consent', () => {
    expect(avatarSrc('https://www.gravatar.com/avatar/abc', false)).toBeNull();
    expect(avatarSrc('https://gravatar.com/avatar/abc', false)).toBeNull();
    expect(avatarSrc('https://www.gravatar.com/avatar/abc', true)).toBe(
      'https://www.gravatar.com/avatar/abc',
    );
  });
  it('keeps other provider images and handles none', () => {
    expect(avatarSrc('https://avatars.githubusercontent.com/u/1', false)).toBe(
      'https://avatars.githubusercontent.com/u/1',
    );
    expect(avatarSrc(null, true)).toBeNull();
    expect(avatarSrc('not a url', false)).toBe('not a url');
  });
});
