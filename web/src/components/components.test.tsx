import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { auth } from '../state/auth';
import { resetAfterEach } from '../test-fixtures';
import {
  CODE_MAX_LENGTH,
  CUSTOM_CODE_PATTERN,
  CODE_MIN_LENGTH,
  INT_MAX,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_URL_LENGTH,
} from '@shared/limits';
import { emptyValues, htmlPattern } from '../lib/short-form';
import { CreateForm } from './CreateForm';
import type { Short } from '../api/client';
import { ShortFacts } from './info/ShortFacts';
import { ShortFields } from './ShortFields';
import { ErrorBoundary } from './ErrorBoundary';
import { LookupForm } from './LookupForm';
import { Toasts } from './Toasts';

resetAfterEach();

/** Opens the create form's 'Erweitert' group (unless this visit left it open). */
function openAdvanced(): void {
  const toggle = screen.getByRole('button', { name: /Erweitert/ });
  if (toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
}

/** `form` in a router with the toasts: `value` typed into the field `label`, `button` clicked. */
function submitWithToasts(form: ReactElement, label: string, value: string, button: string) {
  render(
    <Router hook={memoryLocation({ path: '/' }).hook}>
      {form}
      <Toasts />
    </Router>,
  );
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: button }));
}

function Boom(): never {
  throw new Error('Kaputt');
}

describe('error screen', () => {
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
  it('shows Interner Fehler with message, stack, start page and report buttons', () => {
    render(
      <ErrorBoundary>
        <Boom />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Interner Fehler' })).toBeInTheDocument();
    expect(screen.getByText('Kaputt')).toBeInTheDocument();
    expect(screen.getByText('Stack')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Fehler melden' })).toBeInTheDocument();
  });
});

describe('lookup form', () => {
  it('goes to the info page of a full short URL', async () => {
    const mem = memoryLocation({ path: '/', record: true });
    render(
      <Router hook={mem.hook}>
        <LookupForm />
      </Router>,
    );
    fireEvent.change(screen.getByLabelText('Short-Code oder Short-URL'), {
      target: { value: 'https://sho.rt/s/abc123/' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Nachschlagen' }));
    expect(mem.history).toEqual(['/', '/s/abc123/info']);
  });

  it('warns about junk', async () => {
    submitWithToasts(<LookupForm />, 'Short-Code oder Short-URL', '%%%', 'Nachschlagen');
    expect(await screen.findByText('Ungültige URL/Short')).toBeInTheDocument();
  });
});

describe('create form', () => {
  it('anonymous: URL and password only', () => {
    auth.status = 'unauthenticated';
    render(<CreateForm />);
    expect(screen.getByLabelText('URL')).toHaveAttribute('type', 'url');
    expect(screen.getByLabelText('Passwort (optional)')).toBeInTheDocument();
    expect(screen.queryByLabelText('Max. Aufrufe')).toBeNull();
  });

  it('keeps what was typed, and its input, when the login is known while typing', async () => {
    // The account's answer comes while the start page is in use: the anonymous form becomes the
    // logged-in one. The fields typed already are the same inputs afterwards (not mounted anew:
    // a key typed into the replaced one would be lost), with their text and the focus.
    auth.status = 'loading';
    render(<CreateForm />);
    const url = screen.getByLabelText('URL');
    const password = screen.getByLabelText('Passwort (optional)');
    fireEvent.change(url, { target: { value: 'https://example.com/typed' } });
    fireEvent.change(password, { target: { value: 'geheim' } });
    url.focus();
    await act(async () => {
      auth.status = 'authenticated';
    });
    expect(screen.getByLabelText('Code')).toBeInTheDocument();
    expect(screen.getByLabelText('URL')).toBe(url);
    expect(screen.getByLabelText('Passwort (optional)')).toBe(password);
    expect(url).toHaveValue('https://example.com/typed');
    expect(password).toHaveValue('geheim');
    expect(url).toHaveFocus();
  });

  it('logged in: code, expiry, max uses (Unbegrenzt) and name', async () => {
    auth.status = 'authenticated';
    render(<CreateForm />);
    openAdvanced();
    expect(await screen.findByLabelText('Max. Aufrufe')).toHaveAttribute(
      'placeholder',
      'Unbegrenzt',
    );
    expect(screen.getByLabelText('Code')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    // The rules editor is a chunk of its own: loaded before the expiry's parser is.
    expect(await screen.findByTestId('rules-editor')).toBeInTheDocument();
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Ablaufdatum'), {
        target: { value: 'morgen um 15 Uhr' },
      });
    });
    // chrono-node is loaded lazily (here beside the rules editor's chunk): more than a second on a busy machine.
    expect(await screen.findByText(/^Verstanden als: /, {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('takes its limits from the field table', () => {
    auth.status = 'authenticated';
    render(<CreateForm />);
    const code = screen.getByLabelText('Code');
    expect(code).toHaveAttribute('maxLength', String(CODE_MAX_LENGTH));
    expect(code).toHaveAttribute('minLength', String(CODE_MIN_LENGTH));
    expect(code).toHaveAttribute('pattern', htmlPattern(CUSTOM_CODE_PATTERN.source));
    expect(code).not.toBeRequired();
    expect(screen.getByLabelText('Name')).toHaveAttribute('maxLength', String(MAX_NAME_LENGTH));
    expect(screen.getByLabelText('URL')).toHaveAttribute('maxLength', String(MAX_URL_LENGTH));
    expect(screen.getByLabelText('URL')).toBeRequired();
    expect(screen.getByLabelText('Passwort (optional)')).toHaveAttribute(
      'maxLength',
      String(MAX_PASSWORD_LENGTH),
    );
    openAdvanced();
    expect(screen.getByLabelText('Max. Aufrufe')).toHaveAttribute('min', '1');
    expect(screen.getByLabelText('Max. Aufrufe')).toHaveAttribute('max', String(INT_MAX));
  });

  it('shows the German text of the answer by its errorKey', async () => {
    auth.status = 'authenticated';
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              status: 409,
              detail: 'Code already exists',
              errorKey: 'code_exists',
            }),
            { status: 409, headers: { 'Content-Type': 'application/problem+json' } },
          ),
      ),
    );
    try {
      submitWithToasts(<CreateForm />, 'URL', 'https://example.com/x', 'Kürzen');
      // The toast (SPEC) and the code's field say it.
      expect(await screen.findByTestId('error-code')).toHaveTextContent(
        'Der Code ist bereits vergeben',
      );
      expect(screen.getAllByText('Der Code ist bereits vergeben')).toHaveLength(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the short fields in edit mode', () => {
  const values = { ...emptyValues(), url: 'https://example.com/a', code: 'abc1234', maxUses: '3' };

  it('every field, the code needed, clear buttons for what may be cleared, the password box', () => {
    const onChange = vi.fn();
    render(
      <ShortFields
        mode="edit"
        loggedIn
        values={values}
        onChange={onChange}
        expireAt={null}
        hasPassword
      />,
    );
    expect(screen.getByLabelText('Code')).toBeRequired();
    expect(screen.getByLabelText('Code')).not.toHaveAttribute('placeholder');
    expect(screen.getByLabelText('Neues Passwort')).toHaveAccessibleDescription(
      'Leer lassen, um das bisherige Passwort zu behalten.',
    );
    expect(screen.getByLabelText('Ablaufdatum')).toHaveAccessibleDescription('Läuft nie ab');
    expect(screen.getByRole('button', { name: 'Ablaufdatum entfernen' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Begrenzung entfernen' }));
    expect(onChange).toHaveBeenLastCalledWith({ maxUses: '' });
    fireEvent.click(screen.getByLabelText('Passwortschutz entfernen'));
    expect(onChange).toHaveBeenLastCalledWith({ removePassword: true });
  });

  it('says when a typed expiry is not understood', () => {
    render(
      <ShortFields
        mode="edit"
        loggedIn
        values={{ ...values, expireAt: 'irgendwann' }}
        onChange={() => undefined}
        expireAt={null}
      />,
    );
    expect(screen.getByLabelText('Ablaufdatum')).toHaveAccessibleDescription(
      'Das Datum wurde nicht verstanden.',
    );
    expect(screen.getByLabelText('Ablaufdatum')).toHaveClass('is-invalid');
    expect(screen.queryByLabelText('Passwortschutz entfernen')).toBeNull();
  });
});

describe('top bar on small screens', () => {
  it('closes the menu on every navigation, also on the way back to the page it was opened on', async () => {
    const { Shell } = await import('./Shell');
    const mem = memoryLocation({ path: '/' });
    render(
      <Router hook={mem.hook}>
        <Shell>
          <p>Inhalt</p>
        </Shell>
      </Router>,
    );
    const toggle = screen.getByRole('button', { name: 'Menü öffnen' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    act(() => mem.navigate('/s'));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    act(() => mem.navigate('/'));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('the facts of a short on its info page', () => {
  const short = {
    id: '5f0c6a0e-4a8a-4c53-9a34-1f6f7f4f2c11',
    code: 'abc1234',
    shortUrl: 'http://localhost/s/abc1234',
    name: null,
    url: null,
    hasPassword: false,
    maxUses: 10,
    createdAt: '2026-01-01T10:00:00.000Z',
    expireAt: null,
    owner: null,
    dangers: false,
  } as unknown as Short;

  it("shows the uses ('Nutzungen') apart from the limit where the server tells them (owners)", () => {
    render(<ShortFacts short={{ ...short, uses: 3 }} />);
    expect(screen.getByRole('textbox', { name: 'Nutzungen' })).toHaveValue('3 / 10');
    expect(screen.getByRole('textbox', { name: 'Max. Aufrufe' })).toHaveValue('10');
    cleanup();
    render(<ShortFacts short={short} />);
    expect(screen.queryByRole('textbox', { name: 'Nutzungen' })).toBeNull();
  });
});
