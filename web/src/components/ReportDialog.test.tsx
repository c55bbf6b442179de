import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { auth } from '../state/auth';
import { resetAfterEach, stubFetch, toastTexts } from '../test-fixtures';
import { ReportDialog } from './ReportDialog';

resetAfterEach();

const texts = toastTexts;

describe('report dialog', () => {
  it('anonymous visitors only see the login hint', () => {
    auth.status = 'unauthenticated';
    render(<ReportDialog code="abc" show onClose={() => undefined} />);
    expect(
      screen.getByText('Sie müssen eingeloggt sein, um einen Short zu melden.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Senden' })).toBeNull();
  });

  it('validates, then maps the server answer to the catalogue toast', async () => {
    auth.status = 'authenticated';
    const calls = stubFetch(409, {
      status: 409,
      detail: 'Entity already exists',
      errorKey: 'report_exists',
    });
    const onClose = vi.fn();
    render(<ReportDialog code="abc" show onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Senden' }));
    expect(
      screen.getByText('Es muss eine Art der Beschwerde ausgewählt werden.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Es muss eine Beschreibung angegeben werden.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    expect(screen.getByLabelText('Beschreibung')).toHaveAttribute('rows', '10');
    fireEvent.change(screen.getByLabelText('Art der Beschwerde'), { target: { value: 'SPAM' } });
    fireEvent.change(screen.getByLabelText('Beschreibung'), { target: { value: 'Werbung' } });
    fireEvent.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(texts()).toContain('Du hast diesen Short bereits gemeldet.'));
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/code/abc/report',
        body: JSON.stringify({ reason: 'SPAM', description: 'Werbung' }),
      },
    ]);
    expect(onClose).not.toHaveBeenCalled();
  });
});
