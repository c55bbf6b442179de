import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resetAfterEach, shortFixture, stubFetch } from '../../test-fixtures';
import { renderWithQueries } from '../../test-utils';
import { ShortBadges } from '../shorts/ShortBadges';
import { Toasts } from '../Toasts';
import { LinkHealth } from './LinkHealth';

resetAfterEach();

const short = shortFixture({
  shortUrl: 'http://localhost/s/abc1234',
  url: 'https://example.com/weg',
  health: {
    state: 'broken',
    status: 404,
    checkedAt: '2026-05-01T11:00:00.000Z',
    failingSince: '2026-04-29T11:00:00.000Z',
  },
});

/** The short's link health with the toasts; 'Jetzt prüfen' clicked. */
async function checkNow(): Promise<void> {
  renderWithQueries(
    <>
      <LinkHealth short={short} />
      <Toasts />
    </>,
  );
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Jetzt prüfen' }));
  });
}

describe('the link health', () => {
  it("a broken short's badge in the list says 'Defekt'", () => {
    renderWithQueries(<ShortBadges short={short} />);
    expect(screen.getByText('Defekt')).toHaveAttribute('data-badge', 'broken');
  });

  it('shows one state, since when it fails and the last answer; nothing without a health', () => {
    renderWithQueries(<LinkHealth short={short} />);
    const box = screen.getByTestId('link-health');
    expect(box).toHaveTextContent('Linkstatus:');
    expect(box).toHaveAttribute('data-state', 'broken');
    expect(box).toHaveTextContent(/Defekt\s*seit /);
    expect(box).toHaveTextContent('Antwort: HTTP 404');
    cleanup();
    renderWithQueries(<LinkHealth short={{ ...short, health: undefined }} />);
    expect(screen.queryByTestId('link-health')).toBeNull();
    cleanup();
    renderWithQueries(
      <LinkHealth
        short={{
          ...short,
          health: { state: 'unknown', status: null, checkedAt: null, failingSince: null },
        }}
      />,
    );
    expect(screen.getByTestId('link-health')).toHaveAttribute('data-state', 'unchecked');
    expect(screen.getByTestId('link-health')).toHaveTextContent('Noch nicht geprüft');
  });

  it("failing fewer than three times: 'Fehlerhaft', never 'Unbekannt' beside it", () => {
    renderWithQueries(
      <LinkHealth
        short={{
          ...short,
          health: {
            state: 'unknown',
            status: null,
            checkedAt: '2026-05-01T11:00:00.000Z',
            failingSince: '2026-05-01T11:00:00.000Z',
          },
        }}
      />,
    );
    const box = screen.getByTestId('link-health');
    expect(box).toHaveAttribute('data-state', 'failing');
    expect(box).toHaveTextContent(/Fehlerhaft\s*seit /);
    expect(box).toHaveTextContent('Keine Antwort');
    expect(box).toHaveTextContent('nach 3 Fehlschlägen in Folge gilt der Link als defekt');
    expect(box).not.toHaveTextContent('Unbekannt');
    cleanup();
    // Checked, but this service may not fetch the target: no answer to tell.
    renderWithQueries(
      <LinkHealth
        short={{
          ...short,
          health: {
            state: 'unknown',
            status: null,
            checkedAt: '2026-05-01T11:00:00.000Z',
            failingSince: null,
          },
        }}
      />,
    );
    expect(screen.getByTestId('link-health')).toHaveTextContent(/Nicht prüfbar/);
    expect(screen.getByTestId('link-health')).not.toHaveTextContent('Keine Antwort');
  });

  it("'Jetzt prüfen' checks the target and says below what it found", async () => {
    const calls = stubFetch(200, {
      state: 'ok',
      status: 200,
      checkedAt: '2026-05-01T12:00:00.000Z',
      failingSince: null,
    });
    await checkNow();
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Geprüft: Das Ziel ist erreichbar (Antwort: HTTP 200).',
    );
    expect(calls.map((c) => c.call)).toContain(`POST /api/code/${short.id}/health`);
  });

  it('a failed check names the answer and what it still takes to count as broken', async () => {
    stubFetch(200, {
      state: 'unknown',
      status: 404,
      checkedAt: '2026-05-01T12:00:00.000Z',
      failingSince: '2026-05-01T12:00:00.000Z',
    });
    await checkNow();
    expect(await screen.findByTestId('link-health-finding')).toHaveTextContent(
      'Geprüft: Das Ziel antwortet mit HTTP 404. Nach 3 Fehlschlägen in Folge gilt der Link als defekt.',
    );
  });

  it('a refused check says why (a rate limit with its time)', async () => {
    stubFetch(429, { status: 429, errorKey: 'rate_limited', retryAfter: 30 });
    await checkNow();
    expect(await screen.findByTestId('link-health-finding')).toHaveTextContent(
      'Zu viele Anfragen. Du kannst es in 30 Sekunden wieder versuchen.',
    );
  });
});
