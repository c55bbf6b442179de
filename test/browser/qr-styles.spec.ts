import { expect, test } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  createOwn,
  expectNoSeriousViolations,
  logIn,
  TARGET_HOST,
} from './support';

// QR styles (CONTRACT "Marketing links"): in the QR dialog the owner picks colours (a picker and
// a hex field), sees the contrast rule before anything is asked, sees the preview follow the
// style, and saves it as the short's default — on the desktop and on a phone.

const PHONE = { width: 390, height: 844 };

beforeEachRejectAll();

for (const device of ['desktop', 'phone'] as const) {
  test(`QR styles on the ${device}: pick colours, see the preview, save the default`, async ({
    page,
  }) => {
    await logIn(page, `qr-styler-${device}`);
    if (device === 'phone') await page.setViewportSize(PHONE);
    const code = await createOwn(page, { url: `https://${TARGET_HOST}/qr-style-${device}` });
    await page.goto(`/s/${code}/info`);
    await page.getByRole('button', { name: 'QR-Code', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'QR-Code' });
    const image = dialog.getByTestId('qr-image');
    await expect(image).toHaveAttribute('src', `/api/code/${code}/qr.svg`);
    const save = dialog.getByRole('button', { name: 'Als Standard speichern' });
    await expect(save).toBeVisible();

    // Too little contrast is said before anything is asked: no download, no save.
    await dialog.getByRole('textbox', { name: 'Vordergrund als Hex-Wert' }).fill('#959595');
    await expect(dialog.getByTestId('qr-contrast')).toHaveText(
      'Zu wenig Kontrast (2,99:1): Vorder- und Hintergrund brauchen mindestens 3:1, damit Scanner den Code lesen.',
    );
    await expect(dialog.getByText('Als SVG herunterladen')).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(save).toBeDisabled();

    // Brand colours: the foreground from the picker, the background typed; more error correction.
    await dialog.getByLabel('Vordergrund', { exact: true }).fill('#1d3557');
    await expect(dialog.getByRole('textbox', { name: 'Vordergrund als Hex-Wert' })).toHaveValue(
      '#1d3557',
    );
    await dialog.getByRole('textbox', { name: 'Hintergrund als Hex-Wert' }).fill('F1FAEE');
    await dialog.getByLabel('Fehlerkorrektur').selectOption('H');
    await dialog.getByLabel('Rand (Module)').selectOption('2');
    await expect(dialog.getByTestId('qr-contrast')).toHaveText('Kontrast 11,56:1');
    const styled = `/api/code/${code}/qr.svg?fg=1d3557&bg=f1faee&ec=H&margin=2`;
    await expect(image).toHaveAttribute('src', styled);
    await expect
      .poll(() => image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    const svg = await (await page.request.get(`${BASE}${styled}`)).text();
    expect(svg).toContain('fill="#f1faee"');
    expect(svg).toContain('stroke="#1d3557"');
    await expect(dialog.getByRole('link', { name: 'Als PNG herunterladen' })).toHaveAttribute(
      'href',
      `/api/code/${code}/qr.png?size=1024&fg=1d3557&bg=f1faee&ec=H&margin=2`,
    );
    await expectNoSeriousViolations(page);

    // Saved as the short's default: its plain address draws it now.
    await save.click();
    await expect(page.getByText('Der QR-Stil ist jetzt der Standard dieses Shorts.')).toBeVisible();
    await expect(
      dialog.getByText('Das ist der gespeicherte Standard dieses Shorts.'),
    ).toBeVisible();
    await expect(save).toBeDisabled();
    await expect(image).toHaveAttribute('src', `/api/code/${code}/qr.svg`);
    const info = await page.request.get(`${BASE}/api/code/${code}?redirect=false`);
    expect(((await info.json()) as { qrStyle: unknown }).qrStyle).toEqual({
      fg: '1d3557',
      bg: 'f1faee',
      ec: 'H',
      margin: 2,
    });

    // Opened again, the dialog starts from the saved style.
    await page.reload();
    await page.getByRole('button', { name: 'QR-Code', exact: true }).click();
    await expect(dialog.getByRole('textbox', { name: 'Hintergrund als Hex-Wert' })).toHaveValue(
      '#f1faee',
    );
    await expect(dialog.getByLabel('Fehlerkorrektur')).toHaveValue('H');
  });
}
