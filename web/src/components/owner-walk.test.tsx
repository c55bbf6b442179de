import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ADVANCED_KEY, resetAdvancedChoice } from '../lib/advanced';
import { auth } from '../state/auth';
import { cookies } from '../state/cookies';
import { resetAfterEach, shortFixture, stubApi } from '../test-fixtures';
import { CreateForm } from './CreateForm';
import { ShortFacts } from './info/ShortFacts';
import { ShortsPaging } from './shorts/ShortsPaging';
import { Toasts } from './Toasts';

// The owner's second walk (issue 40): the overview's redirects, the create form's 'Erweitert'
// group and its errors at the fields, counts in the singular.

resetAfterEach();

const design = cookies.consent.services.design;
beforeEach(() => {
  resetAdvancedChoice();
  localStorage.removeItem(ADVANCED_KEY);
});
afterEach(() => {
  cookies.consent.services.design = design;
});

function renderCreate(): void {
  auth.status = 'authenticated';
  render(
    <Router hook={memoryLocation({ path: '/' }).hook}>
      <CreateForm />
      <Toasts />
    </Router>,
  );
}

const advancedToggle = () => screen.getByRole('button', { name: /Erweitert/ });

describe("the owner's overview", () => {
  it('sums up the redirect rules and the after-expiry target', () => {
    render(
      <ShortFacts
        short={shortFixture({
          rules: [
            { conditions: [{ type: 'os', value: 'ios' }], url: 'https://apps.apple.com/app/x' },
            {
              conditions: [
                { type: 'device', value: 'mobile' },
                { type: 'country', value: 'DE' },
              ],
              url: 'https://example.com/de',
            },
          ],
          expiredUrl: 'https://example.com/angebot-beendet',
        })}
      />,
    );
    const list = screen.getByRole('list', { name: 'Weiterleitungen' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'iOS → apps.apple.com/app/x',
      'Smartphone und Land: Deutschland → example.com/de',
      'Nach Ablauf → example.com/angebot-beendet',
    ]);
    expect(screen.getByTitle('https://example.com/angebot-beendet')).toBeInTheDocument();
  });

  it('says nothing of redirects a short does not have (or a visitor is not shown)', () => {
    render(<ShortFacts short={shortFixture({ rules: [], expiredUrl: null })} />);
    expect(screen.queryByTestId('short-redirects')).toBeNull();
    cleanup();
    render(<ShortFacts short={shortFixture()} />);
    expect(screen.queryByTestId('short-redirects')).toBeNull();
  });
});

describe("the create form's 'Erweitert' group", () => {
  it('folds max uses, domain, after-expiry target and rules; says what is set while closed', async () => {
    stubApi(() => ({ status: 200, body: [] }));
    renderCreate();
    expect(advancedToggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByLabelText('Code')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    expect(screen.getByLabelText('Ablaufdatum')).toBeInTheDocument();
    expect(screen.queryByLabelText('Max. Aufrufe')).toBeNull();
    expect(screen.queryByLabelText('Ziel nach Ablauf')).toBeNull();
    expect(screen.queryByTestId('rules-editor')).toBeNull();
    fireEvent.click(advancedToggle());
    expect(advancedToggle()).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByTestId('rules-editor')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Max. Aufrufe'), { target: { value: '5' } });
    fireEvent.click(advancedToggle());
    expect(screen.getByTestId('advanced-set')).toHaveTextContent('1 Angabe gesetzt');
  });

  it('remembers whether it was open: in localStorage with the design consent', () => {
    cookies.consent.services.design = true;
    stubApi(() => ({ status: 200, body: [] }));
    renderCreate();
    fireEvent.click(advancedToggle());
    expect(localStorage.getItem(ADVANCED_KEY)).toBe('open');
    cleanup();
    resetAdvancedChoice(); // a later visit
    renderCreate();
    expect(advancedToggle()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(advancedToggle());
    expect(localStorage.getItem(ADVANCED_KEY)).toBe('closed');
  });

  it('without the design consent: for this visit only, nothing stored', () => {
    cookies.consent.services.design = false;
    localStorage.setItem(ADVANCED_KEY, 'closed');
    stubApi(() => ({ status: 200, body: [] }));
    renderCreate();
    fireEvent.click(advancedToggle());
    // A stored choice is removed (as the theme's rule does), this visit's is kept.
    expect(localStorage.getItem(ADVANCED_KEY)).toBeNull();
    cleanup();
    renderCreate();
    expect(advancedToggle()).toHaveAttribute('aria-expanded', 'true');
    cleanup();
    resetAdvancedChoice(); // a later visit
    renderCreate();
    expect(advancedToggle()).toHaveAttribute('aria-expanded', 'false');
  });

  it('is not there for anonymous visitors', () => {
    auth.status = 'unauthenticated';
    render(<CreateForm />);
    expect(screen.queryByRole('button', { name: /Erweitert/ })).toBeNull();
  });
});

describe("the create form's errors at their fields", () => {
  const selfRefusal = (field: 'url' | 'expiredUrl') => ({
    status: 400,
    body: {
      status: 400,
      errorKey: 'validation_failed',
      detail: 'Validation failed',
      fieldErrors: { [field]: 'must not point to this service' },
      fieldErrorKeys: { [field]: 'url_self' },
    },
  });
  const SELF =
    'Die URL führt zu diesem Dienst selbst (seine Adresse oder eine seiner Domains). Das gäbe eine Schleife.';

  it('a link to this service says why at the URL, until the URL changes', async () => {
    stubApi((call) => (call === 'POST /api/code' ? selfRefusal('url') : { status: 200, body: [] }));
    renderCreate();
    fireEvent.change(screen.getByLabelText('URL'), {
      target: { value: 'http://localhost/s/abc' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kürzen' }));
    });
    expect(await screen.findByTestId('error-url')).toHaveTextContent(SELF);
    expect(screen.getByLabelText('URL')).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://example.com/' } });
    expect(screen.queryByTestId('error-url')).toBeNull();
  });

  it("an error of a folded field opens 'Erweitert' and shows there", async () => {
    stubApi((call) =>
      call === 'POST /api/code' ? selfRefusal('expiredUrl') : { status: 200, body: [] },
    );
    renderCreate();
    expect(advancedToggle()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://example.com/' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kürzen' }));
    });
    await waitFor(() => expect(advancedToggle()).toHaveAttribute('aria-expanded', 'true'));
    expect(await screen.findByTestId('error-expiredUrl')).toHaveTextContent(SELF);
  });

  it('the code field says which characters it allows (not the browser’s format message)', () => {
    renderCreate();
    const code = screen.getByLabelText<HTMLInputElement>('Code');
    expect(code).toHaveAccessibleDescription(
      '3 bis 64 Zeichen aus A–Z, a–z, 0–9, _ und -; Groß- und Kleinschreibung zählt.',
    );
    fireEvent.change(code, { target: { value: 'mein code!' } });
    expect(code.checkValidity()).toBe(false);
    expect(code.validationMessage).toBe(
      'Erlaubt sind 3 bis 64 Zeichen aus A–Z, a–z, 0–9, _ und -.',
    );
    fireEvent.input(code, { target: { value: 'mein-code' } });
    expect(code.checkValidity()).toBe(true);
  });
});

describe('counts', () => {
  it("say '1 Eintrag', '2 Einträge'", () => {
    const paging = (total: number) => (
      <ShortsPaging
        total={total}
        size={20}
        onSize={() => undefined}
        page={0}
        pageCount={1}
        onPage={() => undefined}
      />
    );
    const { rerender } = render(paging(1));
    expect(screen.getByTestId('shorts-total')).toHaveTextContent(/^1 Eintrag$/);
    rerender(paging(2));
    expect(screen.getByTestId('shorts-total')).toHaveTextContent(/^2 Einträge$/);
  });
});
