import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import PasswordPage from './PasswordPage';

afterEach(() => {
  cleanup();
});

/** The form's action on the password page at `path` (with its query). */
function actionAt(path: string): string | null {
  const mem = memoryLocation({ path });
  const { container } = render(
    <Router hook={mem.hook} searchHook={mem.searchHook}>
      <Route path="/s/:code/password-required" component={PasswordPage} />
    </Router>,
  );
  return container.querySelector('form')?.getAttribute('action') ?? null;
}

describe('password page', () => {
  it('posts to the follow of its code', () => {
    expect(actionAt('/s/aB3dE5f/password-required')).toBe('/s/aB3dE5f');
    expect(actionAt('/s/aB3dE5f/password-required?wrong=true')).toBe('/s/aB3dE5f');
  });

  it('keeps an accepted danger warning, so the password does not lead back to the warning', () => {
    expect(actionAt('/s/aB3dE5f/password-required?accept_danger=true')).toBe(
      '/s/aB3dE5f?accept_danger=true',
    );
    expect(actionAt('/s/aB3dE5f/password-required?wrong=true&accept_danger=true')).toBe(
      '/s/aB3dE5f?accept_danger=true',
    );
    expect(actionAt('/s/aB3dE5f/password-required?accept_danger=yes')).toBe('/s/aB3dE5f');
  });
});
