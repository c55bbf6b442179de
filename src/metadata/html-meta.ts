import type * as HtmlParser2 from 'htmlparser2';

export interface ShortMeta {
  title: string | null;
  description: string | null;
  image: string | null;
}

export const EMPTY_META: Readonly<ShortMeta> = Object.freeze({
  title: null,
  description: null,
  image: null,
});

const MAX_TITLE = 300;
const MAX_DESCRIPTION = 1000;
const MAX_IMAGE_URL = 2048;

/**
 * Reads title, description and image from an HTML document:
 * `og:title` before `<title>`, `og:description` before `<meta name="description">`,
 * and `og:image` only when it is an absolute https: URL (anything else → null).
 * Entities are decoded, whitespace collapsed, lengths bounded.
 */
export function extractMeta(html: string): ShortMeta {
  const found: {
    ogTitle?: string;
    ogDescription?: string;
    ogImage?: string;
    title?: string;
    description?: string;
  } = {};
  let inTitle = false;
  let titleDone = false;
  let titleText = '';
  // <title> inside <svg> is an SVG element, not the document title.
  let svgDepth = 0;

  // Loaded by the first page read (link previews): htmlparser2 and its entity tables take about
  // 1 MB of heap that an app without previews to fetch does not hold.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Parser } = require('htmlparser2') as typeof HtmlParser2;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'svg') svgDepth++;
        if (name === 'title' && svgDepth === 0 && !titleDone) {
          inTitle = true;
          titleText = '';
        }
        if (name !== 'meta') return;
        const key = (attrs.property ?? attrs.name ?? '').trim().toLowerCase();
        const content = attrs.content;
        if (content === undefined) return;
        if (key === 'og:title' && found.ogTitle === undefined) found.ogTitle = content;
        else if (key === 'og:description' && found.ogDescription === undefined)
          found.ogDescription = content;
        else if (key === 'og:image' && found.ogImage === undefined) found.ogImage = content;
        else if (key === 'description' && found.description === undefined)
          found.description = content;
      },
      ontext(text) {
        if (inTitle) titleText += text;
      },
      onclosetag(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
          found.title = titleText;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  return {
    title: clean(found.ogTitle, MAX_TITLE) ?? clean(found.title, MAX_TITLE),
    description:
      clean(found.ogDescription, MAX_DESCRIPTION) ?? clean(found.description, MAX_DESCRIPTION),
    image: httpsUrl(found.ogImage),
  };
}

function clean(value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  const text = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > max ? text.slice(0, max - 1).trimEnd() + '…' : text;
}

function httpsUrl(value: string | undefined): string | null {
  const raw = value?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw); // no base: relative URLs throw
    if (url.protocol !== 'https:' || !url.hostname) return null;
    return url.href.length > MAX_IMAGE_URL ? null : url.href;
  } catch {
    return null;
  }
}
