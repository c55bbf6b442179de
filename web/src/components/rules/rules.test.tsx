import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { auth } from '../../state/auth';
import { newRule, type RuleDraft, type RulesProblemAt } from '../../lib/rules';
import { resetAfterEach, stubApi } from '../../test-fixtures';
import { CreateForm } from '../CreateForm';
import { Toasts } from '../Toasts';
import RulesEditor from './RulesEditor';

resetAfterEach();

/** The editor with its own state; `seen` holds every list it handed out. */
function Editor({
  initial = [],
  seen,
  error,
  problemAt,
}: {
  initial?: RuleDraft[];
  seen?: RuleDraft[][];
  error?: string;
  problemAt?: RulesProblemAt;
}) {
  const [rules, setRules] = useState(initial);
  return (
    <form>
      <RulesEditor
        idPrefix="test-rules"
        rules={rules}
        onChange={(r) => {
          seen?.push(r);
          setRules(r);
        }}
        error={error}
        problemAt={problemAt}
      />
    </form>
  );
}

const rules = () => screen.queryAllByTestId('rule');
const addRule = () => fireEvent.click(screen.getByRole('button', { name: 'Regel hinzufügen' }));
const ruleNamed = (n: number) => screen.getByRole('group', { name: `Regel ${n}` });
/** Fills a rule: its first condition (type and value) and its target. */
function fill(n: number, type: string, value: string, url: string) {
  const rule = within(ruleNamed(n));
  fireEvent.change(rule.getByLabelText('Art von Bedingung 1'), { target: { value: type } });
  fireEvent.change(rule.getByLabelText('Wert von Bedingung 1'), { target: { value } });
  fireEvent.change(rule.getByLabelText('dann weiter zu'), { target: { value: url } });
}
/** Adds one rule per entry, then fills each (as `fill`: condition type, value, target). */
function addRules(...entries: [type: string, value: string, url: string][]) {
  entries.forEach(() => addRule());
  entries.forEach(([type, value, url], i) => fill(i + 1, type, value, url));
}
const targets = () =>
  rules().map((r) => (within(r).getByLabelText('dann weiter zu') as HTMLInputElement).value);

describe('the rules editor', () => {
  it('adds rules with one condition each; conditions by type: selects for device and os, suggestions for country and language', () => {
    render(<Editor />);
    expect(rules()).toHaveLength(0);
    addRule();
    expect(rules()).toHaveLength(1);
    const rule = within(ruleNamed(1));
    expect(rule.getAllByTestId('rule-condition')).toHaveLength(1);
    // A new condition is a device one, its value still to choose.
    const device = rule.getByLabelText('Wert von Bedingung 1') as HTMLSelectElement;
    expect(device.tagName).toBe('SELECT');
    expect([...device.options].map((o) => o.text)).toEqual([
      'Bitte wählen',
      'Desktop',
      'Smartphone',
      'Tablet',
    ]);
    expect(device).toBeRequired();
    fireEvent.change(rule.getByLabelText('Art von Bedingung 1'), { target: { value: 'os' } });
    expect(
      [...(rule.getByLabelText('Wert von Bedingung 1') as HTMLSelectElement).options].map(
        (o) => o.value,
      ),
    ).toEqual(['', 'android', 'ios', 'windows', 'macos', 'linux']);
    fireEvent.change(rule.getByLabelText('Art von Bedingung 1'), { target: { value: 'country' } });
    const country = rule.getByLabelText('Wert von Bedingung 1');
    const list = document.getElementById(country.getAttribute('list')!)!;
    expect(list.tagName).toBe('DATALIST');
    expect(list.querySelector('option[value="DE"]')).toHaveAttribute('label', 'Deutschland');
    expect(list.querySelectorAll('option')).toHaveLength(249);
    fireEvent.change(rule.getByLabelText('Art von Bedingung 1'), { target: { value: 'language' } });
    const language = rule.getByLabelText('Wert von Bedingung 1');
    const languages = document.getElementById(language.getAttribute('list')!)!;
    expect(languages.querySelector('option[value="en"]')).toHaveAttribute('label', 'Englisch');
    // A value the server would refuse says so at once.
    fireEvent.change(language, { target: { value: 'not a language' } });
    expect(language).toHaveClass('is-invalid');
    expect(rule.getByText('Ein Sprachkürzel wie de oder en-GB.')).toBeInTheDocument();
    fireEvent.change(language, { target: { value: 'en-GB' } });
    expect(language).not.toHaveClass('is-invalid');
    fireEvent.change(rule.getByLabelText('Art von Bedingung 1'), { target: { value: 'query' } });
    expect(rule.getByLabelText('Wert von Bedingung 1')).toHaveValue('');
    expect(rule.getByLabelText('Wert von Bedingung 1')).toHaveAttribute('placeholder', 'name=wert');
  });

  it('moves rules up and down and removes them; the ends cannot move further', () => {
    render(<Editor />);
    addRules(
      ['os', 'ios', 'https://a.example/'],
      ['os', 'android', 'https://b.example/'],
      ['language', 'en', 'https://c.example/'],
    );
    expect(screen.getByRole('button', { name: 'Regel 1 nach oben' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Regel 3 nach unten' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Regel 3 nach oben' }));
    expect(targets()).toEqual(['https://a.example/', 'https://c.example/', 'https://b.example/']);
    fireEvent.click(screen.getByRole('button', { name: 'Regel 1 nach unten' }));
    expect(targets()).toEqual(['https://c.example/', 'https://a.example/', 'https://b.example/']);
    // The moved rule keeps its condition.
    expect(within(ruleNamed(1)).getByLabelText('Wert von Bedingung 1')).toHaveValue('en');
    fireEvent.click(screen.getByRole('button', { name: 'Regel 2 entfernen' }));
    expect(targets()).toEqual(['https://c.example/', 'https://b.example/']);
    expect(within(ruleNamed(2)).getByLabelText('Wert von Bedingung 1')).toHaveValue('android');
  });

  it('takes at most 10 rules and 5 conditions per rule; the last condition stays', () => {
    render(<Editor initial={Array.from({ length: 9 }, newRule)} />);
    addRule();
    expect(rules()).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Regel hinzufügen' })).toBeDisabled();
    expect(screen.getByText('Höchstens 10 Regeln.')).toBeInTheDocument();
    const rule = within(ruleNamed(1));
    expect(rule.getByRole('button', { name: 'Bedingung 1 entfernen' })).toBeDisabled();
    const more = rule.getByRole('button', { name: 'Bedingung hinzufügen' });
    for (let i = 0; i < 4; i++) fireEvent.click(more);
    expect(rule.getAllByTestId('rule-condition')).toHaveLength(5);
    expect(more).toBeDisabled();
    expect(rule.getByText('Höchstens 5 Bedingungen je Regel.')).toBeInTheDocument();
    fireEvent.click(rule.getByRole('button', { name: 'Bedingung 2 entfernen' }));
    expect(rule.getAllByTestId('rule-condition')).toHaveLength(4);
    expect(more).toBeEnabled();
  });

  it("shows the server's refusal at the rule and condition it names, else below the list", () => {
    const two = [newRule(), newRule()];
    render(
      <Editor
        initial={two}
        error="Eine Bedingung einer Regel ist ungültig."
        problemAt={{ rule: 1, condition: 0 }}
      />,
    );
    expect(within(ruleNamed(2)).getByLabelText('Wert von Bedingung 1')).toHaveClass('is-invalid');
    expect(
      within(ruleNamed(2)).getByText('Eine Bedingung einer Regel ist ungültig.'),
    ).toBeVisible();
    expect(within(ruleNamed(1)).queryByText('Eine Bedingung einer Regel ist ungültig.')).toBeNull();
    cleanup();
    render(
      <Editor initial={two} error="Die URL einer Regel ist ungültig." problemAt={{ rule: 0 }} />,
    );
    expect(within(ruleNamed(1)).getByLabelText('dann weiter zu')).toHaveClass('is-invalid');
    cleanup();
    render(
      <Editor
        initial={two}
        error="Höchstens 10 Regeln mit je 1 bis 5 Bedingungen."
        problemAt={{}}
      />,
    );
    expect(screen.getByTestId('error-rules')).toHaveTextContent('Höchstens 10 Regeln');
  });
});

describe('the rules in the create form', () => {
  /** The create form; logged in, its 'Erweitert' group opened (it holds the rules). */
  function renderCreate() {
    render(
      <Router hook={memoryLocation({ path: '/' }).hook}>
        <CreateForm />
        <Toasts />
      </Router>,
    );
    const toggle = screen.queryByRole('button', { name: /Erweitert/ });
    if (toggle && toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
  }

  it('are only there for logged-in users', async () => {
    renderCreate();
    expect(screen.queryByTestId('rules-editor')).toBeNull();
    expect(screen.queryByLabelText('Ziel nach Ablauf')).toBeNull();
    cleanup();
    auth.status = 'authenticated';
    stubApi(() => ({ status: 200, body: [] }));
    renderCreate();
    expect(await screen.findByTestId('rules-editor')).toBeInTheDocument();
    expect(screen.getByLabelText('Ziel nach Ablauf')).toHaveAccessibleDescription(
      'Wohin Besucher kommen, wenn der Short abgelaufen oder aufgebraucht ist. Leer: die Hinweisseite.',
    );
  });

  it('sends the rules in their order with the expiry fallback', async () => {
    auth.status = 'authenticated';
    const calls = stubApi((call) =>
      call === 'POST /api/code'
        ? { status: 201, body: { code: 'neu1234' } }
        : { status: 200, body: [] },
    );
    renderCreate();
    await screen.findByTestId('rules-editor');
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://example.com/' } });
    fireEvent.change(screen.getByLabelText('Ziel nach Ablauf'), {
      target: { value: 'https://example.com/vorbei' },
    });
    addRules(
      ['os', 'ios', 'https://apps.apple.com/app/x'],
      ['os', 'android', 'https://play.google.com/store/apps/details?id=x'],
      ['language', ' en ', 'https://example.com/en'],
    );
    // A second condition on the third rule: only on phones.
    fireEvent.click(within(ruleNamed(3)).getByRole('button', { name: 'Bedingung hinzufügen' }));
    fireEvent.change(within(ruleNamed(3)).getByLabelText('Wert von Bedingung 2'), {
      target: { value: 'mobile' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Regel 3 nach oben' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kürzen' }));
    });
    const post = calls.find((c) => c.call === 'POST /api/code');
    expect(post?.json).toMatchObject({
      url: 'https://example.com/',
      expiredUrl: 'https://example.com/vorbei',
      rules: [
        { conditions: [{ type: 'os', value: 'ios' }], url: 'https://apps.apple.com/app/x' },
        {
          conditions: [
            { type: 'language', value: 'en' },
            { type: 'device', value: 'mobile' },
          ],
          url: 'https://example.com/en',
        },
        {
          conditions: [{ type: 'os', value: 'android' }],
          url: 'https://play.google.com/store/apps/details?id=x',
        },
      ],
    });
  });

  it("shows a refusal of the rules at the rule it names, by the errorKey's text", async () => {
    auth.status = 'authenticated';
    stubApi((call) =>
      call === 'POST /api/code'
        ? {
            status: 400,
            body: {
              status: 400,
              errorKey: 'validation_failed',
              detail: 'Validation failed',
              fieldErrors: { rules: 'rule 2: url is blacklisted' },
              fieldErrorKeys: { rules: 'rule_url_blacklisted' },
              fieldErrorPaths: { rules: ['rules', 1, 'url'] },
            },
          }
        : { status: 200, body: [] },
    );
    renderCreate();
    await screen.findByTestId('rules-editor');
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://example.com/' } });
    addRules(
      ['device', 'tablet', 'https://example.com/tablet'],
      ['country', 'DE', 'https://boese.example/'],
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kürzen' }));
    });
    const text = 'Die URL einer Regel ist auf der Blacklist. Du darfst auf sie nicht verlinken.';
    expect(within(ruleNamed(2)).getByTestId('error-rules')).toHaveTextContent(text);
    expect(within(ruleNamed(2)).getByLabelText('dann weiter zu')).toHaveClass('is-invalid');
    expect(within(ruleNamed(1)).queryByTestId('error-rules')).toBeNull();
    // Changing the rules takes the refusal away.
    fill(2, 'country', 'AT', 'https://gut.example/');
    expect(screen.queryByTestId('error-rules')).toBeNull();
  });
});
