export const FLAG_PREFIX = 'url.frontend.';
export const FLAGS = {
  experimentSwitch: 'url.frontend.experimentSwitch',
  statistics: 'url.frontend.statistics',
  accountWizard: 'url.frontend.account.wizard',
  languageSwitch: 'url.frontend.languageSwitch',
  maintenance: 'url.frontend.maintenance',
  shutdown: 'url.frontend.shutdown',
} as const;

/**
 * Flags that follow the server alone (no local switch): operator signals, the experiment switch,
 * the statistics (owners see their statistics and reports whenever the server offers them:
 * no opt-in, no consent) and the language switch (a visitor who reads no German could not find
 * an opt-in; CONTRACT "Language": with the flag on, the footer offers both languages).
 */
export const SERVER_ONLY = new Set<string>([
  FLAGS.experimentSwitch,
  FLAGS.statistics,
  FLAGS.languageSwitch,
  FLAGS.maintenance,
  FLAGS.shutdown,
]);

/**
 * A flag is on only if the server flag is on and, unless a forced override is
 * given, the local switch is on too. The experiment switch is always on.
 */
export function isFlagOn(
  name: string,
  server: Record<string, boolean>,
  local: readonly string[],
  force?: boolean,
): boolean {
  if (name === FLAGS.experimentSwitch) return true;
  if (!server[name]) return false;
  if (force !== undefined) return force;
  if (SERVER_ONLY.has(name)) return true;
  return local.includes(name);
}

/** Locally switched-on flags are stored as a list of names. */
export function parseLocalFlags(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
