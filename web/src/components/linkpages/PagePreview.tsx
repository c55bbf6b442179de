import type { CSSProperties } from 'react';
import type { PageTheme } from '../../api/pages';
import { useLinkPagesT } from '../../i18n/link-pages-text';
import { pluralForm } from '../../i18n/plural';

/**
 * The public page's colours (src/pages/page-html.ts LIGHT and DARK: keep them alike), so that the
 * preview looks as /p/{slug} will.
 */
export const PAGE_COLOURS = {
  light: {
    bg: '#f6f7f9',
    fg: '#1b1f23',
    muted: '#57606a',
    card: '#ffffff',
    line: '#d0d7de',
  },
  dark: {
    bg: '#0d1117',
    fg: '#e6edf3',
    muted: '#9da7b3',
    card: '#161b22',
    line: '#30363d',
  },
} as const;

/** A link as the page will show it: its text (label, else the short's name, else its code). */
export interface PreviewLink {
  key: string;
  text: string;
  /** False: left out by the page right now (expired, used up or flagged). */
  visible: boolean;
}

/** 'auto' follows the device, as the public page does (`prefers-color-scheme`). */
function themeShown(theme: PageTheme): 'light' | 'dark' {
  if (theme !== 'auto') return theme;
  const dark =
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-color-scheme: dark)').matches;
  return dark ? 'dark' : 'light';
}

/**
 * 'Vorschau': the page as /p/{slug} renders it (src/pages/page-html.ts: title, description, the
 * links in order, the footer; its colours), from the editor's fields as they are, saved or not.
 * The links are not followed here (no visit counted).
 */
export function PagePreview({
  title,
  description,
  theme,
  links,
}: {
  title: string;
  description: string;
  theme: PageTheme;
  links: readonly PreviewLink[];
}) {
  const { t, lp } = useLinkPagesT();
  const shown = themeShown(theme);
  const c = PAGE_COLOURS[shown];
  const visible = links.filter((l) => l.visible);
  const hidden = links.length - visible.length;
  const centred: CSSProperties = { textAlign: 'center', overflowWrap: 'anywhere' };
  const muted: CSSProperties = { ...centred, color: c.muted, whiteSpace: 'pre-line' };
  return (
    <section aria-labelledby="page-preview-title" className="mb-3">
      <h3 id="page-preview-title" className="h5">
        {lp.linkPages.preview}
      </h3>
      <p className="small text-body-secondary mb-2">{lp.linkPages.previewHint}</p>
      <div
        data-testid="page-preview"
        data-theme={shown}
        style={{
          background: c.bg,
          color: c.fg,
          colorScheme: shown,
          border: `1px solid ${c.line}`,
          borderRadius: '.75rem',
          padding: '1.5rem 1rem',
          font: '16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
        }}
      >
        <p
          data-testid="page-preview-title"
          style={{ ...centred, fontSize: '1.4rem', fontWeight: 700, margin: '0 0 .5rem' }}
        >
          {title.trim() || '…'}
        </p>
        {description.trim() && (
          <p data-testid="page-preview-description" style={{ ...muted, margin: '0 0 1.25rem' }}>
            {description}
          </p>
        )}
        {visible.length > 0 ? (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {visible.map((l) => (
              <li key={l.key} style={{ margin: '0 0 .75rem' }}>
                <span
                  data-testid="page-preview-link"
                  style={{
                    ...centred,
                    display: 'block',
                    padding: '.9rem 1rem',
                    border: `1px solid ${c.line}`,
                    borderRadius: '.75rem',
                    background: c.card,
                    fontWeight: 600,
                  }}
                >
                  {l.text}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p style={{ ...muted, margin: '0 0 1.25rem' }}>{lp.linkPages.previewEmpty}</p>
        )}
        <p style={{ ...muted, fontSize: '.85rem', margin: '2rem 0 0' }}>
          {lp.linkPages.previewMade}
        </p>
      </div>
      {hidden > 0 && (
        <p className="small text-body-secondary mt-2" data-testid="page-preview-hidden">
          {t(pluralForm(lp.linkPages.previewHidden, hidden), { count: hidden })}
        </p>
      )}
    </section>
  );
}
