import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { applyCatalogue } from '../../i18n/current';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { PREVIEW_CATALOGUES } from '../../i18n/preview-text';
import {
  changesOf,
  createBody,
  emptyValues,
  fieldsOf,
  type PreviewDraft,
} from '../../lib/short-form';
import { resetAfterEach, shortFixture } from '../../test-fixtures';
import SocialPreviewSection, { hostOf } from './SocialPreviewSection';

resetAfterEach();

const EMPTY: PreviewDraft = { title: '', description: '', image: '' };

/** The section as a form holds it: its value kept, every change seen. */
function Harness({ initial = EMPTY, seen }: { initial?: PreviewDraft; seen?: PreviewDraft[] }) {
  const [value, setValue] = useState(initial);
  return (
    <SocialPreviewSection
      idPrefix="create-preview"
      label="Vorschau für soziale Netzwerke"
      value={value}
      onChange={(v) => {
        seen?.push(v);
        setValue(v);
      }}
      url="https://www.shop.example/herbst?utm_source=x"
    />
  );
}

describe('the social preview section', () => {
  it('is folded until opened, then shows the three inputs and both cards live', () => {
    const seen: PreviewDraft[] = [];
    render(<Harness seen={seen} />);
    const toggle = screen.getByRole('button', { name: /Vorschau für soziale Netzwerke/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText('Titel')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    fireEvent.change(screen.getByLabelText('Titel'), { target: { value: 'Herbst-Sale' } });
    fireEvent.change(screen.getByLabelText('Beschreibung'), {
      target: { value: '20 % auf alles' },
    });
    fireEvent.change(screen.getByLabelText('Bild-URL'), {
      target: { value: 'https://cdn.example/herbst.png' },
    });
    expect(seen.at(-1)).toEqual({
      title: 'Herbst-Sale',
      description: '20 % auf alles',
      image: 'https://cdn.example/herbst.png',
    });
    const linkedin = screen.getByTestId('card-linkedin');
    const slack = screen.getByTestId('card-slack');
    for (const card of [linkedin, slack]) {
      expect(card).toHaveTextContent('Herbst-Sale');
      expect(card).toHaveTextContent('shop.example'); // the target's host, without www.
      expect(card.querySelector('img')).toHaveAttribute('src', 'https://cdn.example/herbst.png');
      expect(card.querySelector('img')).toHaveAttribute('referrerpolicy', 'no-referrer');
    }
    expect(linkedin).toHaveTextContent('Wie in LinkedIn');
    expect(slack).toHaveTextContent('Wie in Slack');
    expect(slack).toHaveTextContent('20 % auf alles'); // Slack shows the text, LinkedIn not
    expect(linkedin).not.toHaveTextContent('20 % auf alles');
    expect(screen.getByText('Noch 109 Zeichen')).toBeInTheDocument(); // 120 - 11
  });

  it('shows no image for a URL that is not https, and marks the input', () => {
    render(
      <Harness initial={{ title: 'T', description: '', image: 'http://cdn.example/a.png' }} />,
    );
    // A short with a preview opens the section at once.
    expect(screen.getByLabelText('Bild-URL')).toHaveClass('is-invalid');
    expect(screen.getByTestId('card-slack').querySelector('img')).toBeNull();
    expect(screen.getByTestId('card-linkedin').querySelector('img')).toBeNull();
  });

  it('speaks English', () => {
    act(() => applyCatalogue('en', en));
    try {
      render(<Harness initial={{ title: 'T', description: '', image: '' }} />);
      expect(screen.getByLabelText('Image URL')).toBeInTheDocument();
      expect(screen.getByTestId('card-slack')).toHaveTextContent('As in Slack');
    } finally {
      act(() => applyCatalogue('de', de));
    }
  });

  it('has the same words in both languages', () => {
    expect(Object.keys(PREVIEW_CATALOGUES.en.preview)).toEqual(
      Object.keys(PREVIEW_CATALOGUES.de.preview),
    );
    expect(hostOf('nonsense')).toBe('');
  });
});

describe('the preview in the short form (lib/short-form.ts)', () => {
  it('creates with the parts typed, none as null', () => {
    const values = emptyValues();
    values.url = 'https://example.com/';
    expect(createBody(values, null, true).preview).toBeNull();
    values.preview = { title: ' Titel ', description: '', image: 'https://cdn.example/a.png' };
    expect(createBody(values, null, true).preview).toEqual({
      title: 'Titel',
      image: 'https://cdn.example/a.png',
    });
    // Anonymous creates never send it.
    expect('preview' in createBody(values, null, false)).toBe(false);
  });

  it('edits: prefilled from the short, sent only when changed, cleared as null', () => {
    const short = shortFixture({
      preview: { title: 'Alt', description: null, image: null },
    });
    const values = fieldsOf(short);
    expect(values.preview).toEqual({ title: 'Alt', description: '', image: '' });
    expect('preview' in changesOf(short, values, null)).toBe(false);
    values.preview = { ...values.preview, description: 'Neu' };
    expect(changesOf(short, values, null).preview).toEqual({ title: 'Alt', description: 'Neu' });
    values.preview = { title: '', description: '', image: '' };
    expect(changesOf(short, values, null).preview).toBeNull();
  });
});
