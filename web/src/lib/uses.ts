import { locale, msg } from '../i18n/current';
import { t } from '../i18n/text';

/**
 * A short's uses ('Nutzungen': follows that reached the target, what `maxUses` limits) as the
 * owner sees them: '3 / 10' with a limit, '3' without. Apart from its visits ('Aufrufe', the
 * statistics). Undefined when the server does not show them (not the owner).
 */
export function usesText(short: { uses?: number; maxUses: number | null }): string | undefined {
  if (short.uses === undefined) return undefined;
  const uses = short.uses.toLocaleString(locale());
  return short.maxUses === null
    ? uses
    : t(msg.shorts.usesOf, { uses, max: short.maxUses.toLocaleString(locale()) });
}
