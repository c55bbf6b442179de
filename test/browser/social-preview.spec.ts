import { expect, test } from '@playwright/test';
import {
  BASE,
  beforeEachRejectAll,
  devLogin,
  expectNoSeriousViolations,
  TARGET_HOST,
} from './support';

// Social previews (CONTRACT "Marketing links"): the create form's section with its live cards as
// LinkedIn and Slack show them, saved with the short; a Slackbot following the short then gets the
// card page with the tags — on the desktop and on a phone.

const PHONE = { width: 390, height: 844 };
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

beforeEachRejectAll();

for (const device of ['desktop', 'phone'] as const) {
  test(`social preview on the ${device}: fill it, see the cards, save, a Slackbot gets the tags`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await devLogin(page, `previewer-${device}`);
    if (device === 'phone') await page.setViewportSize(PHONE);

    await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
    await page.getByLabel('URL', { exact: true }).fill(`https://www.${TARGET_HOST}/herbst`);
    const toggle = page.getByRole('button', { name: 'Vorschau für soziale Netzwerke' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await page.getByLabel('Titel', { exact: true }).fill('Herbst & "Sale"');
    await page.getByLabel('Beschreibung', { exact: true }).fill('Nur diese Woche <20 %>');
    await page.getByLabel('Bild-URL', { exact: true }).fill(`https://${TARGET_HOST}/karte.png`);

    // The live cards: title, host (without www.) and image; Slack shows the description too.
    const linkedin = page.getByTestId('card-linkedin');
    const slack = page.getByTestId('card-slack');
    for (const card of [linkedin, slack]) {
      await expect(card).toContainText('Herbst & "Sale"');
      await expect(card).toContainText(TARGET_HOST);
      await expect(card.locator('img')).toHaveAttribute('src', `https://${TARGET_HOST}/karte.png`);
    }
    await expect(slack).toContainText('Nur diese Woche <20 %>');
    await expect(page.getByText('Noch 105 Zeichen')).toBeVisible();
    await expectNoSeriousViolations(page);

    await page.getByRole('button', { name: 'Kürzen' }).click();
    await expect(page).toHaveURL(/\/info\?show_created=true$/);
    const code = new URL(page.url()).pathname.split('/')[2];

    // A Slackbot following the short gets the card page with the preview's tags.
    const res = await page.request.get(`${BASE}/s/${code}`, {
      headers: { 'user-agent': SLACKBOT },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="Herbst &amp; &quot;Sale&quot;">');
    expect(html).toContain(
      '<meta property="og:description" content="Nur diese Woche &lt;20 %&gt;">',
    );
    expect(html).toContain(`<meta property="og:image" content="https://${TARGET_HOST}/karte.png">`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain(
      `<meta http-equiv="refresh" content="0; url=https://www.${TARGET_HOST}/herbst">`,
    );
  });
}
