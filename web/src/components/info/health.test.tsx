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

  it('shows the state, the last answer and since when it fails; nothing without a health', () => {
    renderWithQueries(<LinkHealth short={short} />);
    const box = screen.getByTestId('link-health');
    expect(box).toHaveTextContent('Linkstatus:');
    expect(box).toHaveTextContent('Defekt');
    expect(box).toHaveTextContent('Antwort: HTTP 404');
    expect(box).toHaveTextContent(/Fehlerhaft seit/);
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
    expect(screen.getByTestId('link-health')).toHaveTextContent('Noch nicht geprüft');
  });

  it("'Jetzt prüfen' checks the target and says how it went", async () => {
    const calls = stubFetch(200, {
      state: 'ok',
      status: 200,
      checkedAt: '2026-05-01T12:00:00.000Z',
      failingSince: null,
    });
    await checkNow();
    expect(await screen.findByText('Geprüft: Das Ziel ist erreichbar.')).toBeInTheDocument();
    expect(calls.map((c) => c.call)).toContain(`POST /api/code/${short.id}/health`);
  });

  it('a refused check says why (a rate limit with its time)', async () => {
    stubFetch(429, { status: 429, errorKey: 'rate_limited', retryAfter: 30 });
    await checkNow();
    expect(
      await screen.findByText('Zu viele Anfragen. Du kannst es in 30 Sekunden wieder versuchen.'),
    ).toBeInTheDocument();
  });
});
