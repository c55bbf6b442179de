import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, toasts } from '../../state/toasts';
import { ApiKeyPanel } from './ApiKeyPanel';
import { Profile } from './Profile';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  for (const t of [...toasts.list]) dismissToast(t.id);
});

const texts = () => toasts.list.map((t) => t.text);

describe('API key panel', () => {
  it('copy shows Kopiert! for 3 s', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<ApiKeyPanel apiKey="us_geheim" loading={false} onGenerate={() => Promise.resolve()} />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('api-key-copy'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(writeText).toHaveBeenCalledWith('us_geheim');
    expect(screen.getByTestId('api-key-copy')).toHaveTextContent('Kopiert!');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2999);
    });
    expect(screen.getByTestId('api-key-copy')).toHaveTextContent('Kopiert!');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByTestId('api-key-copy')).toHaveTextContent('Kopieren');
  });

  it('copy failure shows Kopieren fehlgeschlagen!', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: () => Promise.reject(new Error('nein')) },
    });
    render(<ApiKeyPanel apiKey="us_geheim" loading={false} onGenerate={() => Promise.resolve()} />);
    fireEvent.click(screen.getByTestId('api-key-copy'));
    expect(await screen.findByText('Kopieren fehlgeschlagen!')).toBeInTheDocument();
  });

  it('reveal toggles the field type', () => {
    render(<ApiKeyPanel apiKey="us_geheim" loading={false} onGenerate={() => Promise.resolve()} />);
    const field = screen.getByLabelText('Dein Api Key');
    expect(field).toHaveAttribute('type', 'password');
    fireEvent.click(screen.getByRole('button', { name: 'Anzeigen' }));
    expect(field).toHaveAttribute('type', 'text');
    fireEvent.click(screen.getByRole('button', { name: 'Verbergen' }));
    expect(field).toHaveAttribute('type', 'password');
  });

  it('generates only after the confirm question; success and failure toasts', async () => {
    const onGenerate = vi.fn(() => Promise.resolve());
    const { rerender } = render(
      <ApiKeyPanel apiKey={null} loading={false} onGenerate={onGenerate} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Api Key generieren' }));
    expect(onGenerate).not.toHaveBeenCalled();
    expect(
      await screen.findByText('Möchtest du wirklich einen neuen Api Key generieren?'),
    ).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Api Key generieren' }).at(-1)!);
    });
    expect(onGenerate).toHaveBeenCalledTimes(1);
    expect(texts()).toContain('Api Key erfolgreich generiert!');

    const failing = vi.fn(() => Promise.reject(new Error('500')));
    rerender(<ApiKeyPanel apiKey="us_alt" loading={false} onGenerate={failing} />);
    fireEvent.click(screen.getByRole('button', { name: 'Neu generieren' }));
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Ja, neu generieren' }));
    });
    expect(failing).toHaveBeenCalledTimes(1);
    expect(texts()).toContain('Api Key konnte nicht neu generiert werden!');
  });
});

describe('profile', () => {
  it('cuts the username at 20, shows the badge when not activated', () => {
    render(
      <Profile
        user={{
          id: '00000000-0000-4000-8000-000000000000',
          username: 'x'.repeat(25),
          email: 'x@example.com',
          imageUrl: null,
          activated: false,
          createdDate: '2024-05-12T10:00:00.000Z',
          authorities: ['ROLE_USER'],
        }}
      />,
    );
    expect(screen.getByTestId('account-username')).toHaveTextContent(`${'x'.repeat(20)}…`);
    expect(screen.getByText('Nicht aktiviert')).toBeInTheDocument();
    expect(screen.getByText('x@example.com')).toBeInTheDocument();
    expect(screen.getByTestId('avatar-default')).toBeInTheDocument();
  });
});
