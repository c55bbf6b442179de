import { BROKEN_AFTER_FAILURES } from '@shared/link-health';
import type { Schemas } from '../api/client';
import { msg } from '../i18n/current';
import { t } from '../i18n/text';

/** A short's link health as the API answers it (CONTRACT "link health"). */
export type Health = Schemas['ShortHealthDto'];

/**
 * The one state the owner reads (the badge of 'Linkstatus'): the server's `unknown` covers three
 * cases a person tells apart: never checked, failing but not yet `broken` (fewer than
 * BROKEN_AFTER_FAILURES failures in a row), and a target this server may not check.
 */
export type HealthView = 'ok' | 'broken' | 'failing' | 'unchecked' | 'uncheckable';

export function healthView(h: Pick<Health, 'state' | 'checkedAt' | 'failingSince'>): HealthView {
  if (h.state === 'ok') return 'ok';
  if (h.state === 'broken') return 'broken';
  if (h.failingSince) return 'failing';
  return h.checkedAt ? 'uncheckable' : 'unchecked';
}

/** What the last check got: 'Antwort: HTTP 404', 'Keine Antwort' (none for a target not checked). */
function answerText(h: Health, view: HealthView): string | undefined {
  if (view === 'unchecked' || view === 'uncheckable') return undefined;
  return h.status === null ? msg.health.noAnswer : t(msg.health.status, { status: h.status });
}

/**
 * The facts beside the state, in reading order: since when it fails, when it was checked last,
 * what was answered, and what a failing link still needs to count as broken.
 */
export function healthFacts(h: Health, formatDate: (iso: string) => string): string[] {
  const view = healthView(h);
  if (view === 'unchecked') return [];
  const facts: string[] = [];
  if ((view === 'failing' || view === 'broken') && h.failingSince) {
    facts.push(t(msg.health.since, { date: formatDate(h.failingSince) }));
  }
  if (h.checkedAt) facts.push(t(msg.health.checkedAt, { date: formatDate(h.checkedAt) }));
  const answer = answerText(h, view);
  if (answer) facts.push(answer);
  if (view === 'uncheckable') facts.push(msg.health.uncheckableHint);
  if (view === 'failing') facts.push(t(msg.health.failingHint, { n: BROKEN_AFTER_FAILURES }));
  return facts;
}

/** What 'Jetzt prüfen' found, in a sentence or two ('Geprüft: Das Ziel antwortet mit HTTP 404. …'). */
export function checkFinding(h: Health): string {
  const view = healthView(h);
  const f = msg.health.found;
  switch (view) {
    case 'ok':
      return h.status === null ? f.ok : t(f.okStatus, { status: h.status });
    case 'uncheckable':
    case 'unchecked':
      return f.uncheckable;
    case 'failing':
    case 'broken': {
      const what = h.status === null ? f.noAnswer : t(f.status, { status: h.status });
      const then = view === 'broken' ? f.broken : t(f.failing, { n: BROKEN_AFTER_FAILURES });
      return `${what} ${then}`;
    }
  }
}
