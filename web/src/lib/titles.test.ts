import { describe, expect, it } from 'vitest';
import { titleFor } from './titles';

describe('titleFor', () => {
  it.each([
    ['/', 'URL-Shorter: Teile deine Links einfach und schnell'],
    ['/login', 'Anmelden – URL-Shorter'],
    ['/s', 'Short nachschlagen – URL-Shorter'],
    ['/s/aB3dE5f/info', 'Short aB3dE5f – URL-Shorter'],
    ['/s/a%20b/info', 'Short a b – URL-Shorter'],
    ['/s/aB3dE5f/potentially-dangerous', 'Potenziell gefährlicher Link – URL-Shorter'],
    ['/s/aB3dE5f/potentiallyDangerous', 'Potenziell gefährlicher Link – URL-Shorter'],
    ['/s/aB3dE5f/password-required', 'Passwort erforderlich – URL-Shorter'],
    ['/s/aB3dE5f/passwordRequired', 'Passwort erforderlich – URL-Shorter'],
    ['/shorts', 'Deine Shorts – URL-Shorter'],
    ['/account', 'Dein Account – URL-Shorter'],
    ['/admin', 'Administration – URL-Shorter'],
    ['/service/offline', 'System nicht erreichbar – URL-Shorter'],
    ['/gibt/es/nicht', 'URL-Shorter: Teile deine Links einfach und schnell'],
  ])('%s → %s', (path, title) => {
    expect(titleFor(path)).toBe(title);
  });
});
