/**
 * A short's social preview (CONTRACT "Marketing links", social previews): the title, description
 * and image that link-card crawlers (Slack, LinkedIn, …) show for it. Its limits and its check,
 * shared by the server (the field's check, the follow's card page) and the web client's section
 * (a lazy chunk: never imported by the field table, which every first visit loads).
 */

/** At most this many characters (after trimming). */
export const PREVIEW_TITLE_MAX = 120;
export const PREVIEW_DESCRIPTION_MAX = 300;
/** The image: an absolute https URL of at most this many characters (never fetched by the server). */
export const PREVIEW_IMAGE_MAX = 2048;

/** The parts of a preview, in order. */
export const PREVIEW_PARTS = ['title', 'description', 'image'] as const;
export type PreviewPart = (typeof PREVIEW_PARTS)[number];

export const PREVIEW_MAX: Readonly<Record<PreviewPart, number>> = {
  title: PREVIEW_TITLE_MAX,
  description: PREVIEW_DESCRIPTION_MAX,
  image: PREVIEW_IMAGE_MAX,
};

/** A stored preview: at least one part; an absent part is empty (the card fills it if it can). */
export type SocialPreview = Partial<Record<PreviewPart, string>>;

/** A preview as a short's answer shows it: every part, null when empty. */
export type SocialPreviewView = Record<PreviewPart, string | null>;

/** Control characters (C0, DEL, C1), and the line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Why a preview is refused: the English message, its key, where in the preview. */
export interface PreviewProblem {
  error: string;
  key: 'preview_invalid' | 'preview_too_long' | 'preview_image_invalid';
  path?: PreviewPart | string;
}

/** Whether `url` is an absolute https URL with a host and without user information. */
export function isHttpsImageUrl(url: string): boolean {
  if (/\s/.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'https:' &&
    parsed.hostname !== '' &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/**
 * A preview as sent (create, edit, an import's cell): an object of `title`, `description` and
 * `image` (each a text, null or absent; texts trimmed, empty ones absent). Answers the preview to
 * store (null: none, every part empty) or why it is refused: another shape, another key, a control
 * character, a text over its length, an image that is no absolute https URL.
 */
export function checkPreview(value: unknown): { value: SocialPreview | null } | PreviewProblem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'must be an object {title, description, image}', key: 'preview_invalid' };
  }
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!(PREVIEW_PARTS as readonly string[]).includes(key)) {
      return { error: `${key} is not a part of a preview`, key: 'preview_invalid', path: key };
    }
  }
  const preview: SocialPreview = {};
  for (const part of PREVIEW_PARTS) {
    const raw = input[part];
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string') {
      return { error: `${part} must be a text`, key: 'preview_invalid', path: part };
    }
    const text = raw.trim();
    if (text === '') continue;
    if (CONTROL.test(text)) {
      return {
        error: `${part} must not contain control characters`,
        key: part === 'image' ? 'preview_image_invalid' : 'preview_invalid',
        path: part,
      };
    }
    if (text.length > PREVIEW_MAX[part]) {
      return {
        error: `${part} must be shorter than or equal to ${PREVIEW_MAX[part]} characters`,
        key: 'preview_too_long',
        path: part,
      };
    }
    if (part === 'image' && !isHttpsImageUrl(text)) {
      return {
        error: 'image must be an absolute https URL',
        key: 'preview_image_invalid',
        path: part,
      };
    }
    preview[part] = text;
  }
  return { value: Object.keys(preview).length ? preview : null };
}

/** A stored preview as a short's answer shows it (every part; null when empty). */
export function previewView(preview: SocialPreview | null): SocialPreviewView | null {
  if (!preview) return null;
  return {
    title: preview.title ?? null,
    description: preview.description ?? null,
    image: preview.image ?? null,
  };
}

/** The `preview` column's JSON text of a stored preview (null: none). */
export function previewToColumn(preview: SocialPreview | null | undefined): string | null {
  return preview && Object.keys(preview).length ? JSON.stringify(preview) : null;
}

/**
 * The stored preview of the `preview` column's JSON text (null: none). A text that is no preview
 * (written by hand) reads as none: a follow must never fail on it. Cheap for shorts without one:
 * NULL is answered before anything is parsed.
 */
export function previewFromColumn(raw: unknown): SocialPreview | null {
  if (raw === null || raw === undefined || raw === '') return null;
  try {
    const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const preview: SocialPreview = {};
    for (const part of PREVIEW_PARTS) {
      const v = (parsed as Record<string, unknown>)[part];
      if (typeof v === 'string' && v !== '') preview[part] = v;
    }
    return Object.keys(preview).length ? preview : null;
  } catch {
    return null;
  }
}
