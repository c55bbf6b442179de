import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { useTestApp } from '../support/app';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { checkResponse } from '../support/openapi';
import { expectProblem } from '../support/problem';
import { createShort } from '../support/shorts';
import { BROWSER_UA } from '../support/user-agent';

/** The link-card crawlers of the contract, as they introduce themselves. */
const CARD_CRAWLERS = [
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Twitterbot/1.0',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'WhatsApp/2.23.20.0 A',
  'TelegramBot (like TwitterBot)',
];
const SLACK = CARD_CRAWLERS[0];
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const TARGET = 'https://example.com/target';

const PREVIEW = {
  title: 'Herbst & "Sale" <jetzt>',
  description: "Bis zu 20 % auf alles, nur heute's",
  image: 'https://cdn.example.com/herbst.png?w=1200&h=630',
};

interface Problem {
  errorKey?: string;
  fieldErrors?: Record<string, string>;
  fieldErrorKeys?: Record<string, string>;
}
interface Stats {
  total: { visits: number; visitors: number; bots: number };
}

/** The `<meta>` tags of a page by property, name or http-equiv, their content unescaped. */
function metaTags(html: string): Map<string, string> {
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const tags = new Map<string, string>();
  for (const m of html.matchAll(/<meta (?:property|name|http-equiv)="([^"]+)" content="([^"]*)">/g))
    tags.set(m[1], unescape(m[2]));
  return tags;
}

/**
 * Social previews (CONTRACT "Marketing links"): the field (create, edit, info, validation, import
 * and export), and the card page that link-card crawlers get on a follow, without a use.
 */
describe('social previews', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  const follow = (code: string, ua: string, init: RequestInit = {}) =>
    t.fetch(`/s/${code}`, { ...init, headers: { 'user-agent': ua } });
  const uses = async (code: string) =>
    Number((await t.query('SELECT uses FROM shorts WHERE code = ?', [code]))[0].uses);
  const stats = async (u: LoggedIn, id: string) => {
    await t.app.get(StatisticsRecorder).flush();
    const res = await u.fetch(`/api/code/${id}/statistics`);
    expect(res.status).toBe(200);
    return ((await res.json()) as Stats).total;
  };
  const refused = async (body: Record<string, unknown>, u: LoggedIn = alice) => {
    const res = await u.post('/api/code', { url: TARGET, ...body });
    const p = (await expectProblem(res, 400)) as Problem;
    return p;
  };

  it('a short keeps its preview: trimmed, shown to whoever may see the target', async () => {
    const { short, code } = await createShort(alice, {
      preview: { title: `  ${PREVIEW.title} `, description: PREVIEW.description, image: '' },
    });
    expect(short.preview).toEqual({
      title: PREVIEW.title,
      description: PREVIEW.description,
      image: null,
    });
    // A stranger sees it where the target is shown; a short with maxUses withholds it as the url.
    const anon = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as ShortDto;
    expect(anon.preview).toEqual(short.preview);
    const limited = await createShort(alice, { maxUses: 2, preview: { title: 'Geheim' } });
    expect(limited.short.preview).toEqual({ title: 'Geheim', description: null, image: null });
    const other = (await (
      await bob.fetch(`/api/code/${limited.code}?redirect=false`)
    ).json()) as ShortDto;
    expect(other.url).toBeNull();
    expect(other.preview).toBeNull();
    // None: null; every part empty is none.
    expect((await createShort(alice)).short.preview).toBeNull();
    expect((await createShort(alice, { preview: { title: ' ' } })).short.preview).toBeNull();
  });

  it('every link-card crawler gets the card page, without a use; people and Googlebot the 302', async () => {
    const { code, id } = await createShort(alice, { preview: PREVIEW });
    for (const ua of CARD_CRAWLERS) {
      const res = await follow(code, ua);
      expect(res.status, ua).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/);
      expect(res.headers.get('cache-control')).toContain('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('location')).toBeNull();
      const html = await res.text();
      const tags = metaTags(html);
      expect(tags.get('og:title'), ua).toBe(PREVIEW.title);
      expect(tags.get('og:description')).toBe(PREVIEW.description);
      expect(tags.get('og:image')).toBe(PREVIEW.image);
      expect(tags.get('og:url')).toBe(TARGET);
      expect(tags.get('twitter:card')).toBe('summary_large_image');
      expect(tags.get('twitter:title')).toBe(PREVIEW.title);
      expect(tags.get('twitter:description')).toBe(PREVIEW.description);
      expect(tags.get('twitter:image')).toBe(PREVIEW.image);
      expect(tags.get('refresh')).toBe(`0; url=${TARGET}`);
      expect(html).toContain(`<a href="${TARGET}">`);
      // Escaped: the title's markup never reaches the page as markup.
      expect(html).not.toContain('<jetzt>');
      expect(html).toContain('Herbst &amp; &quot;Sale&quot; &lt;jetzt&gt;');
    }
    // A documented answer of both follow routes.
    for (const [path, template] of [
      [`/s/${code}`, '/s/{code}'],
      [`/api/code/${code}`, '/api/code/{id}'],
    ] as const) {
      const res = await t.fetch(path, { headers: { 'user-agent': SLACK } });
      expect(res.status).toBe(200);
      await checkResponse('GET', template, res);
    }
    // The page's language follows Accept-Language.
    const en = await t.fetch(`/s/${code}`, {
      headers: { 'user-agent': SLACK, 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(en.headers.get('content-language')).toBe('en');
    expect(await en.text()).toContain('<html lang="en">');
    const de = await t.fetch(`/s/${code}`, {
      headers: { 'user-agent': SLACK, 'accept-language': 'de-DE' },
    });
    expect(await de.text()).toContain('<html lang="de">');

    const google = await follow(code, GOOGLEBOT);
    expect(google.status).toBe(302);
    expect(google.headers.get('location')).toBe(TARGET);
    const person = await follow(code, BROWSER_UA);
    expect(person.status).toBe(302);
    expect(person.headers.get('location')).toBe(TARGET);
    expect(await stats(alice, id)).toEqual({
      visits: 1,
      visitors: 1,
      bots: CARD_CRAWLERS.length + 2 + 2 + 1, // the crawlers, the spec checks, the languages, Googlebot
    });
  });

  it('a short with maxUses: a card with the preview but no target and no refresh, no use claimed', async () => {
    const { code, id } = await createShort(alice, {
      maxUses: 1,
      name: 'Einmal',
      preview: { description: 'Nur einmal' },
    });
    for (const ua of CARD_CRAWLERS) {
      const res = await follow(code, ua);
      expect(res.status, ua).toBe(200);
      const html = await res.text();
      const tags = metaTags(html);
      expect(tags.get('og:title')).toBe('Einmal'); // no title in the preview: the short's name
      expect(tags.get('og:description')).toBe('Nur einmal');
      expect(tags.get('twitter:card')).toBe('summary');
      expect(tags.has('og:url')).toBe(false);
      expect(tags.has('refresh')).toBe(false);
      expect(html).not.toContain('example.com');
      expect(html).not.toContain('<a ');
    }
    // Other bots keep the bot preview (the name only).
    const google = await follow(code, GOOGLEBOT);
    expect(google.status).toBe(200);
    const page = await google.text();
    expect(page).toContain('<meta property="og:title" content="Einmal">');
    expect(page).not.toContain('og:description');
    expect(await uses(code)).toBe(0);
    // The one person gets the target; then it is used up for crawlers too.
    expect((await follow(code, BROWSER_UA)).headers.get('location')).toBe(TARGET);
    const after = await follow(code, SLACK);
    expect(after.status).toBe(302);
    expect(after.headers.get('location')).toBe(`/s/${code}/not-found?reason=used-up`);
    expect(await uses(code)).toBe(1);
    expect((await stats(alice, id)).visits).toBe(1);
  });

  it('a short without a preview, and password and danger answers, are unchanged for crawlers', async () => {
    const plain = await createShort(alice);
    const res = await follow(plain.code, SLACK);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(TARGET);

    const locked = await createShort(alice, { password: 'geheim123', preview: PREVIEW });
    const pw = await follow(locked.code, SLACK);
    expect(pw.status).toBe(302);
    expect(pw.headers.get('location')).toBe(`/s/${locked.code}/password-required`);

    const flagged = await createShort(alice, { preview: PREVIEW });
    await t.query('UPDATE shorts SET dangerous = 1 WHERE code = ?', [flagged.code]);
    const danger = await follow(flagged.code, SLACK);
    expect(danger.status).toBe(302);
    expect(danger.headers.get('location')).toBe(`/s/${flagged.code}/potentially-dangerous`);
  });

  it('an edit sets, changes and clears the preview; the next follow sees it', async () => {
    const { code, id } = await createShort(alice);
    expect((await follow(code, SLACK)).status).toBe(302); // cached without a preview
    const set = await alice.patch(`/api/code/${id}`, { preview: { title: 'Neu' } });
    expect(set.status, await set.clone().text()).toBe(200);
    expect(((await set.json()) as ShortDto).preview).toEqual({
      title: 'Neu',
      description: null,
      image: null,
    });
    expect(metaTags(await (await follow(code, SLACK)).text()).get('og:title')).toBe('Neu');
    const cleared = await alice.patch(`/api/code/${id}`, { preview: null });
    expect(((await cleared.json()) as ShortDto).preview).toBeNull();
    expect((await follow(code, SLACK)).status).toBe(302);
    // {} removes it as well.
    await alice.patch(`/api/code/${id}`, { preview: { title: 'Wieder' } });
    const empty = await alice.patch(`/api/code/${id}`, { preview: {} });
    expect(((await empty.json()) as ShortDto).preview).toBeNull();
  });

  it('refuses what is no preview, with its key', async () => {
    const image = await refused({ preview: { image: 'http://cdn.example.com/a.png' } });
    expect(image.fieldErrorKeys?.preview).toBe('preview_image_invalid');
    const relative = await refused({ preview: { image: '/a.png' } });
    expect(relative.fieldErrorKeys?.preview).toBe('preview_image_invalid');
    const title = await refused({ preview: { title: 'x'.repeat(121) } });
    expect(title.fieldErrorKeys?.preview).toBe('preview_too_long');
    expect(title.fieldErrors?.preview).toMatch(/120/);
    const description = await refused({ preview: { description: 'x'.repeat(301) } });
    expect(description.fieldErrorKeys?.preview).toBe('preview_too_long');
    const longImage = await refused({
      preview: { image: `https://cdn.example.com/${'a'.repeat(2040)}` },
    });
    expect(longImage.fieldErrorKeys?.preview).toBe('preview_too_long');
    const control = await refused({ preview: { title: 'a\u0000b' } });
    expect(control.errorKey).toBeDefined();
    const bell = await refused({ preview: { title: 'a\u0007b' } });
    expect(bell.fieldErrorKeys?.preview).toBe('preview_invalid');
    const unknown = await refused({ preview: { colour: 'red' } });
    expect(unknown.fieldErrorKeys?.preview).toBe('preview_invalid');
    const list = await refused({ preview: ['a'] });
    expect(list.fieldErrorKeys?.preview).toBe('preview_invalid');
    const text = await refused({ preview: 'a title' });
    expect(text.fieldErrorKeys?.preview).toBe('preview_invalid');
    // Exactly the limits pass.
    const ok = await createShort(alice, {
      preview: { title: 'x'.repeat(120), description: 'y'.repeat(300) },
    });
    expect(ok.short.preview?.title).toHaveLength(120);
    // Anonymous creates take no preview.
    const anon = await t.post('/api/code', { url: TARGET, preview: { title: 'T' } });
    const p = (await expectProblem(anon, 400)) as Problem;
    expect(p.errorKey ?? p.fieldErrorKeys?.preview).toBeDefined();
    expect(JSON.stringify(p)).toContain('field_not_allowed');
  });

  it('export and import carry the preview (CSV and JSON) and an import checks it', async () => {
    const carol = await loginAs(t, 'carol');
    const { code } = await createShort(carol, { code: 'preview-roundtrip', preview: PREVIEW });
    const json = (await (await carol.fetch('/api/code/export?format=json')).json()) as Array<
      Record<string, unknown>
    >;
    const row = json.find((r) => r.code === code);
    expect(JSON.parse(row?.preview as string)).toEqual(PREVIEW);
    const csv = await (await carol.fetch('/api/code/export?format=csv')).text();
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(JSON.parse(records.find((r) => r.code === code)?.preview ?? '')).toEqual(PREVIEW);

    // Read back by another user: CSV and `{rows}` (the preview as text or as an object).
    const dave = await loginAs(t, 'dave');
    const fromCsv = await dave.post('/api/code/import', {
      csv: csv.replace('preview-roundtrip', 'preview-roundtrip-2'),
    });
    expect(fromCsv.status, await fromCsv.clone().text()).toBe(200);
    expect(((await fromCsv.json()) as { created: number }).created).toBe(1);
    const fromRows = await dave.post('/api/code/import', {
      rows: [
        { url: TARGET, code: 'preview-rows', preview: { title: 'Zeile' } },
        { url: TARGET, code: 'preview-bad', preview: '{"image":"http://x.example/a.png"}' },
        { url: TARGET, code: 'preview-nojson', preview: 'kein json' },
      ],
    });
    const result = (await fromRows.json()) as {
      created: number;
      skipped: Array<{ code: string; errorKey: string }>;
    };
    expect(result.created).toBe(1);
    expect(result.skipped.map((s) => [s.code, s.errorKey])).toEqual([
      ['preview-bad', 'preview_image_invalid'],
      ['preview-nojson', 'preview_invalid'],
    ]);
    const info = async (c: string) =>
      ((await (await dave.fetch(`/api/code/${c}?redirect=false`)).json()) as ShortDto).preview;
    expect(await info('preview-roundtrip-2')).toEqual(PREVIEW);
    expect(await info('preview-rows')).toEqual({ title: 'Zeile', description: null, image: null });
    const card = metaTags(await (await follow('preview-roundtrip-2', SLACK)).text());
    expect(card.get('og:image')).toBe(PREVIEW.image);
  });

  it('admins edit it as JSON text by the owner’s checks', async () => {
    const admin = await loginAs(t, 'admin');
    const { id, code } = await createShort(alice);
    const res = await admin.put(`/api/admin/entity/shorts/${id}`, {
      preview: '{"title":"Vom Admin"}',
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    expect(metaTags(await (await follow(code, SLACK)).text()).get('og:title')).toBe('Vom Admin');
    const bad = await admin.put(`/api/admin/entity/shorts/${id}`, {
      preview: '{"image":"http://x.example/a.png"}',
    });
    expect(bad.status).toBe(400);
  });
});
