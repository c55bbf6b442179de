import { Inject, Injectable } from '@nestjs/common';
import { UserService } from '../account/user.service';
import { NotFoundError } from '../common/errors';
import { APP_CONFIG, type AppConfig, type HomeFigures } from '../config/config';
import { ShortViewService } from '../shorts/short-view.service';

/** The counts are read at most once per this interval (per instance). */
export const FIGURES_TTL_MS = 60_000;

export interface Figures {
  /** Shorts that exist (rounded down, see floorFigure; under 10: 0). */
  links: number;
  /** Uses of all shorts: follows that reached the target. */
  visits: number;
  /** Accounts. */
  users: number;
}

/** Below this a count is answered as 0 and its card is not shown (a new instance shows none). */
export const FIGURE_MIN = 10;

/**
 * A count rounded down to its leading digit (`1,234` → `1,000`, `41` → `40`, `300` → `300`), so a
 * card can honestly read "1.000+"; a count under 10 is 0: a card of "3+ Nutzer" says more about a
 * new instance than it boasts, so the start page shows none (CONTRACT "Configuration").
 */
export function floorFigure(n: number): number {
  if (!Number.isFinite(n) || n < FIGURE_MIN) return 0;
  const p = 10 ** Math.floor(Math.log10(n));
  return Math.floor(n / p) * p;
}

/**
 * The start page's live figures (HOME_FIGURES=live): this instance's shorts, uses and accounts,
 * rounded down. Read at most once a minute; callers within that minute (and during the query)
 * share one answer. A failed count is not kept.
 */
@Injectable()
export class FiguresService {
  private cached: { at: number; value: Promise<Figures> } | null = null;
  private readonly mode: HomeFigures;

  constructor(
    private readonly shorts: ShortViewService,
    private readonly users: UserService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.mode = config.web.homeFigures;
  }

  /** The live figures; 404 unless the start page shows live figures. */
  figures(now = Date.now()): Promise<Figures> {
    if (this.mode !== 'live')
      return Promise.reject(
        new NotFoundError('Live figures are not enabled (HOME_FIGURES)', 'figures_disabled'),
      );
    if (this.cached && now - this.cached.at < FIGURES_TTL_MS) return this.cached.value;
    const value = this.count();
    const entry = { at: now, value };
    this.cached = entry;
    value.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return value;
  }

  private async count(): Promise<Figures> {
    const [totals, users] = await Promise.all([this.shorts.totals(), this.users.count()]);
    return {
      links: floorFigure(totals.shorts),
      visits: floorFigure(totals.uses),
      users: floorFigure(users),
    };
  }
}
