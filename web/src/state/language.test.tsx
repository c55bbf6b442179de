import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PAGE_TITLES } from '@shared/language';
import { afterEach, describe, expect, it } from 'vitest';
import { proxy } from 'valtio';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../App';
import { locale, msg } from '../i18n/current';
import { de } from '../i18n/de';
import { en } from '../i18n/en';
import { exampleExpiryDate, formatDateTime, parseExpiry } from '../lib/expiry';
import { FLAGS } from '../lib/flag-rule';
import { runtimeConfig } from '../runtime-config';
import { setServerFlags } from './flags';
import { applyLanguage, initLanguage, language, LANGUAGE_KEY, startLanguage } from './language';

afterEach(async () => {
  cleanup();
  localStorage.clear();
  await applyLanguage('de');
});

/** The app on the start page, with the language switch on. */
function renderStartPage() {
  setServerFlags({ [FLAGS.languageSwitch]: true });
  const mem = memoryLocation({ path: '/' });
  render(
    <Router hook={mem.hook}>
      <App />
    </Router>,
  );
}

describe('the language', () => {
  it('switches the catalogue, the locale and <html lang>, and back', async () => {
    await applyLanguage('en');
    expect(language.current).toBe('en');
    expect(msg.nav.login).toBe('Log in');
    expect(msg.start.features[0]).toMatch(/^Paste a long link/);
    expect(document.documentElement.lang).toBe('en');
    expect(locale()).toBe('en-US');
    expect(formatDateTime('2026-03-01T15:00:00')).toMatch(/^Mar 1, 2026/);
    await applyLanguage('de');
    expect(msg.nav.login).toBe('Anmelden');
    expect(document.documentElement.lang).toBe('de');
    expect(formatDateTime('2026-03-01T15:00:00')).toMatch(/^01\.03\.2026/);
  });

  it("index.html's description says the language too", async () => {
    const meta = document.createElement('meta');
    meta.name = 'description';
    meta.content = 'URL-Shorter: Teile deine Links einfach und schnell';
    document.head.append(meta);
    // The server writes the same words into index.html (src/shared/language.ts).
    expect(de.app.pageTitle).toBe(PAGE_TITLES.de);
    expect(en.app.pageTitle).toBe(PAGE_TITLES.en);
    try {
      await applyLanguage('en');
      expect(meta.content).toBe('URL-Shorter: Share your links simply and quickly');
      await applyLanguage('de');
      expect(meta.content).toBe('URL-Shorter: Teile deine Links einfach und schnell');
    } finally {
      meta.remove();
    }
  });

  it('parses the expiry in the chosen language', async () => {
    const ref = new Date(2026, 10, 25, 12, 0);
    expect((await parseExpiry('tomorrow at 3pm', ref, 'en'))?.getHours()).toBe(15);
    expect((await parseExpiry('next friday', ref, 'en'))?.getDay()).toBe(5);
    expect((await parseExpiry('in 2 days', ref, 'en'))?.getDate()).toBe(27);
    expect((await parseExpiry('morgen um 15 Uhr', ref, 'de'))?.getDate()).toBe(26);
    expect(await parseExpiry('morgen um 15 Uhr', ref, 'en')).toBeNull();
    expect(exampleExpiryDate(ref, 'en')).toBe('5/12/2027');
    expect(exampleExpiryDate(ref, 'de')).toBe('12.05.2027');
  });

  it('follows the browser with the switch on and ignores it with the switch off', async () => {
    Object.defineProperty(navigator, 'languages', { value: ['en-GB', 'de'], configurable: true });
    await initLanguage(true);
    expect(language.current).toBe('en');
    await initLanguage(false);
    expect(language.current).toBe('de');
  });

  it('speaks the browser language from the start when the runtime config tells the switch, and follows the flags', async () => {
    Object.defineProperty(navigator, 'languages', { value: ['en-US'], configurable: true });
    runtimeConfig.languageSwitch = true;
    const f = proxy({ ready: false, enabled: {} as Record<string, boolean> });
    try {
      startLanguage(f);
      await waitFor(() => expect(language.current).toBe('en'));
      // The flag service says the switch is off: the instance default applies.
      f.enabled = { [FLAGS.languageSwitch]: false };
      f.ready = true;
      await waitFor(() => expect(language.current).toBe('de'));
    } finally {
      runtimeConfig.languageSwitch = null;
    }
  });

  it("applies the footer's choice at once and remembers it", async () => {
    renderStartPage();
    expect(
      await screen.findByRole('heading', { name: 'Teile deine Links einfach und schnell' }),
    ).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Sprache' });
    await act(async () => {
      fireEvent.change(select, { target: { value: 'en' } });
    });
    await waitFor(() =>
      expect(
        screen.getByRole('heading', { name: 'Share your links simply and quickly' }),
      ).toBeTruthy(),
    );
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
    expect(screen.queryByText('Kürzen')).toBeNull();
  });

  it('keeps what was typed into the create form when the language changes (no remount)', async () => {
    renderStartPage();
    const url = await screen.findByRole('textbox', { name: 'URL' });
    fireEvent.change(url, { target: { value: 'https://example.com/a/long/link' } });
    const password = screen.getByLabelText(de.create.password);
    fireEvent.change(password, { target: { value: 'geheim' } });
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Sprache' }), {
        target: { value: 'en' },
      });
    });
    await screen.findByRole('button', { name: en.create.submit });
    // The same inputs (not new ones), with what was typed, under their English labels.
    expect(screen.getByRole('textbox', { name: 'URL' })).toBe(url);
    expect(url).toHaveValue('https://example.com/a/long/link');
    expect(screen.getByLabelText(en.create.password)).toBe(password);
    expect(password).toHaveValue('geheim');
  });
});
