import { expect, type Page } from '@playwright/test';

/**
 * Opens the start page's 'Erweitert' group (logged in: max uses, domain, after-expiry target,
 * rules), unless it is open already (with the design consent it stays open across visits).
 */
export async function openAdvanced(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Erweitert', exact: true });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}
