import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyCatalogue } from '../../i18n/current';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { QR_CATALOGUES } from '../../i18n/qr-text';
import { catalogueTexts } from '../../i18n/texts';
import { qrImageUrl } from '../../lib/qr-style';
import { resetAfterEach, stubApi, toastTexts } from '../../test-fixtures';
import { renderWithQueries } from '../../test-utils';
import { QrDialog } from './QrDialog';

resetAfterEach();

const STORED = { fg: '1d3557', bg: 'f1faee', ec: 'Q', margin: 2 } as const;
const none = () => undefined;

/** The dialog of short `abc` (id `id-1`) with the stored style, once its style panel is loaded. */
async function open(props: { canSave?: boolean; qrStyle?: typeof STORED | null } = {}) {
  const view = renderWithQueries(
    <QrDialog
      code="abc"
      id="id-1"
      link="https://short.example/s/abc"
      qrStyle={props.qrStyle === undefined ? STORED : props.qrStyle}
      canSave={props.canSave}
      show
      onClose={none}
    />,
  );
  // The panel is a lazy chunk: its first import is transformed on the way (slow on a busy host).
  await screen.findByTestId('qr-style', {}, { timeout: 10_000 });
  return view;
}

const image = () => screen.getByTestId('qr-image');
const svgLink = () => screen.getByText('Als SVG herunterladen');
const pngLink = () => screen.getByText('Als PNG herunterladen');
const hex = (name: string) => screen.getByRole('textbox', { name: `${name} als Hex-Wert` });
const typeHex = (name: string, value: string) => fireEvent.change(hex(name), { target: { value } });

describe('QR dialog: the style', () => {
  it('starts from the stored style: the plain addresses draw it', async () => {
    await open();
    expect(hex('Vordergrund')).toHaveValue('#1d3557');
    expect(hex('Hintergrund')).toHaveValue('#f1faee');
    expect(screen.getByLabelText('Fehlerkorrektur')).toHaveValue('Q');
    expect(screen.getByLabelText('Rand (Module)')).toHaveValue('2');
    expect(screen.getByLabelText('Vordergrund')).toHaveValue('#1d3557');
    expect(image()).toHaveAttribute('src', '/api/code/abc/qr.svg');
    expect(svgLink()).toHaveAttribute('href', '/api/code/abc/qr.svg');
    expect(pngLink()).toHaveAttribute('href', '/api/code/abc/qr.png?size=1024');
    expect(screen.getByTestId('qr-contrast')).toHaveTextContent('Kontrast 11,56:1');
  });

  it('a chosen style goes into the downloads at once and into the preview once it rests', async () => {
    await open();
    fireEvent.change(screen.getByLabelText('Vordergrund'), { target: { value: '#e63946' } });
    expect(hex('Vordergrund')).toHaveValue('#e63946');
    fireEvent.change(screen.getByLabelText('Fehlerkorrektur'), { target: { value: 'H' } });
    fireEvent.change(screen.getByLabelText('Rand (Module)'), { target: { value: '0' } });
    const query = 'fg=e63946&bg=f1faee&ec=H&margin=0';
    expect(svgLink()).toHaveAttribute('href', `/api/code/abc/qr.svg?${query}`);
    expect(pngLink()).toHaveAttribute('href', `/api/code/abc/qr.png?size=1024&${query}`);
    await waitFor(() => expect(image()).toHaveAttribute('src', `/api/code/abc/qr.svg?${query}`), {
      timeout: 5000,
    });
    // `#` is optional in the hex field; the query never has one.
    typeHex('Hintergrund', 'FFFFFF');
    await waitFor(
      () =>
        expect(image()).toHaveAttribute(
          'src',
          '/api/code/abc/qr.svg?fg=e63946&bg=ffffff&ec=H&margin=0',
        ),
      { timeout: 5000 },
    );
  });

  it('says the contrast rule before asking: too little contrast or a malformed colour asks nothing', async () => {
    await open({ canSave: true });
    typeHex('Vordergrund', '#959595');
    typeHex('Hintergrund', '#ffffff');
    expect(screen.getByTestId('qr-contrast')).toHaveTextContent(
      'Zu wenig Kontrast (2,99:1): Vorder- und Hintergrund brauchen mindestens 3:1, damit Scanner den Code lesen.',
    );
    expect(svgLink()).not.toHaveAttribute('href');
    expect(svgLink()).toHaveAttribute('aria-disabled', 'true');
    expect(pngLink()).not.toHaveAttribute('href');
    expect(screen.getByRole('button', { name: 'Als Standard speichern' })).toBeDisabled();
    // The preview keeps the last style the server takes.
    expect(image()).toHaveAttribute('src', '/api/code/abc/qr.svg');

    typeHex('Vordergrund', '#94949');
    expect(hex('Vordergrund')).toHaveAttribute('aria-invalid', 'true');
    expect(hex('Vordergrund')).toHaveAccessibleDescription('Sechs Hex-Ziffern, z. B. #1d3557.');
    expect(svgLink()).not.toHaveAttribute('href');

    typeHex('Vordergrund', '#949494'); // 3.03:1
    expect(screen.getByTestId('qr-contrast')).toHaveTextContent('Kontrast 3,03:1');
    expect(svgLink()).toHaveAttribute(
      'href',
      '/api/code/abc/qr.svg?fg=949494&bg=ffffff&ec=Q&margin=2',
    );
  });

  it('saves the chosen style as the short’s default (PATCH qrStyle) for its owners only', async () => {
    const calls = stubApi({ 'PATCH /api/code/id-1': { status: 200, body: {} } });
    const { unmount } = await open({ canSave: true });
    const save = screen.getByRole('button', { name: 'Als Standard speichern' });
    // The stored style is the default already.
    expect(save).toBeDisabled();
    expect(screen.getByText('Das ist der gespeicherte Standard dieses Shorts.')).toBeVisible();
    typeHex('Vordergrund', '#2A9D8F');
    fireEvent.change(screen.getByLabelText('Hintergrund'), { target: { value: '#ffffff' } });
    fireEvent.click(save);
    await waitFor(() =>
      expect(toastTexts()).toEqual(['Der QR-Stil ist jetzt der Standard dieses Shorts.']),
    );
    expect(calls.map((c) => [c.call, c.json])).toEqual([
      ['PATCH /api/code/id-1', { qrStyle: { fg: '2a9d8f', bg: 'ffffff', ec: 'Q', margin: 2 } }],
    ]);
    unmount();

    // Without a stored style: black on white; others get no save button.
    await open({ qrStyle: null });
    expect(hex('Vordergrund')).toHaveValue('#000000');
    expect(screen.queryByRole('button', { name: 'Als Standard speichern' })).toBeNull();
    expect(screen.getByTestId('qr-contrast')).toHaveTextContent('Kontrast 21:1');
  });

  it('speaks English too', async () => {
    applyCatalogue('en', en);
    try {
      await open({ canSave: true });
      fireEvent.change(screen.getByRole('textbox', { name: 'Foreground as hex value' }), {
        target: { value: '959595' },
      });
      fireEvent.change(screen.getByRole('textbox', { name: 'Background as hex value' }), {
        target: { value: 'ffffff' },
      });
      expect(screen.getByTestId('qr-contrast')).toHaveTextContent(
        'Too little contrast (2.99:1): foreground and background need at least 3:1 so that scanners read the code.',
      );
      expect(screen.getByRole('button', { name: 'Save as default' })).toBeDisabled();
    } finally {
      applyCatalogue('de', de);
    }
    const german = catalogueTexts(QR_CATALOGUES.de);
    expect([...catalogueTexts(QR_CATALOGUES.en).keys()].sort()).toEqual([...german.keys()].sort());
  });

  it('names an own domain’s short by ?domain= after the style', () => {
    const style = { fg: '000000', bg: 'ffffff', ec: 'M', margin: 4 } as const;
    expect(qrImageUrl('a b', 'svg', style, style, { domain: 'go.example.com' })).toBe(
      '/api/code/a%20b/qr.svg?domain=go.example.com',
    );
    expect(
      qrImageUrl('abc', 'png', { ...style, ec: 'L' }, style, {
        domain: 'go.example.com',
        size: 1024,
      }),
    ).toBe(
      '/api/code/abc/qr.png?size=1024&fg=000000&bg=ffffff&ec=L&margin=4&domain=go.example.com',
    );
  });
});
