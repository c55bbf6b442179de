import { Inject, Injectable } from '@nestjs/common';
import { activeActor, type Actor } from '../common/actor';
import { type Page, type PageRequest, toPage } from '../common/paging';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { BlacklistService } from '../blacklist/blacklist.service';
import { requestHost } from '../domains/domain-host';
import { MAIN_HOST_FILTER } from '../shared/domains';
import type { RedirectRule } from '../shared/redirect-rules';
import { splitTags } from '../shared/tags';
import { previewView, type SocialPreview } from '../shared/social-preview';
import { qrStyleFromColumn } from '../shared/qr-style';
import {
  type FieldType,
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldSpec,
} from '../shared/short-fields';
import { SHORT_VIEW, type ShortDto, type ShortOwnProperties } from './dto/short.dto';
import type { ShortVisitsSource } from './short-events';
import { healthView } from './short-health';
import { ShortAccessService } from './short-access.service';
import type { ShortEntity } from './short.entity';
import { type FieldColumn, type OwnFilter, ShortRepository, type Space } from './short.repository';

export type { Space };

/** The most tags `GET /api/tags` answers (the most used). */
export const MAX_TAG_COUNTS = 1000;

/** The columns of the url-typed fields and of the rules (whose urls a blacklist check reads). */
const URL_COLUMNS = columnsOfType('url');
const RULES_COLUMNS = columnsOfType('rules');
function columnsOfType(type: FieldType): FieldColumn[] {
  return SHORT_FIELD_NAMES.filter((name) => SHORT_FIELDS[name].type === type).map(
    (name) => SHORT_FIELDS[name].column,
  );
}

/**
 * A shown field's value in a short's answer (ShortDto), by its type: a date as ISO text, rules as
 * a list ([] for none), the row's `none` as null; `revealed` ones null unless the target is shown.
 */
function shownValue(s: ShortEntity, spec: ShortFieldSpec, revealUrl: boolean): unknown {
  if (spec.shown?.to === 'revealed' && !revealUrl) return null;
  const value = s[spec.column as FieldColumn];
  if (spec.type === 'date-time') return value ? (value as Date).toISOString() : null;
  if (spec.type === 'rules') return value ?? [];
  if (spec.type === 'tags') return splitTags(value as string | null);
  if (spec.type === 'preview') return previewView(value as SocialPreview | null);
  if (spec.type === 'qr-style') return qrStyleFromColumn(value as string | null);
  if (spec.type === 'team') return s.teamId ? { id: s.teamId, name: s.team?.name ?? '' } : null;
  return spec.none !== undefined && value === spec.none ? null : value;
}

/**
 * Shorts as the API shows them: the info call, the owner's list and its visits, the export's
 * pages, the link to share, the start page's totals. Every answer maps through toDto.
 */
@Injectable()
export class ShortViewService {
  private readonly baseUrl: string;

  constructor(
    private readonly shorts: ShortRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly blacklist: BlacklistService,
    private readonly access: ShortAccessService,
  ) {
    this.baseUrl = config.baseUrl;
  }

  private visitsSource: ShortVisitsSource | null = null;

  /** Where the own list's visits come from (the statistics module registers itself). */
  useVisits(source: ShortVisitsSource): void {
    this.visitsSource = source;
  }

  private visitsOf(ids: readonly string[]): Promise<Map<string, number>> {
    return this.visitsSource?.visitsOf(ids) ?? Promise.resolve(new Map());
  }

  /** The own list's sort by visits (`0` without statistics). */
  visitsOrder(alias: string): string {
    return this.visitsSource?.orderExpression(alias) ?? '0';
  }

  /** How many shorts exist and how often they were used (the start page's live figures). */
  totals(): Promise<{ shorts: number; uses: number }> {
    return this.shorts.totals();
  }

  // ---------------------------------------------------------------- info

  /** The short as JSON; url withheld as `mayReveal` decides. */
  async info(
    code: string,
    caller: Actor | null,
    password: string | undefined,
    client: string,
    domain = '',
  ): Promise<ShortDto> {
    const s = await this.access.findVisible(code, domain);
    const mayReveal = await this.access.mayReveal(s, caller, password, client);
    const actor = activeActor(caller);
    // An API key sees what its owner sees only with the scope shorts:read.
    const reader = actor?.key && !actor.key.scopes.includes('shorts:read') ? null : actor;
    if (!(await this.access.may(reader, s, 'read'))) return this.toDto(s, mayReveal);
    // Its owner, its team's members and admins see its uses and visits, as in the own list.
    const visits = await this.visitsOf([s.id]);
    return this.toDto(s, mayReveal, { visits: visits.get(s.id) ?? 0 });
  }

  /**
   * A short as the API shows it: the info call, the own list and the export all map through here.
   * `url` as `revealUrl` says (mayReveal); `counts` (uses and visits) for its owner's views;
   * `ownerView` (its owner or an admin asks; with counts by default) adds the expiry fallback, the
   * rules and the link health.
   */
  toDto(
    s: ShortEntity,
    revealUrl: boolean,
    counts?: { visits: number },
    ownerView = counts !== undefined,
  ): ShortDto {
    const own: ShortOwnProperties = {
      id: s.id,
      shortUrl: this.shortUrl(s.code, s.domain),
      hasPassword: s.passwordHash !== null,
      createdAt: s.createdAt.toISOString(),
      owner: s.owner ? { id: s.owner.id, username: s.owner.username } : null,
      dangers: this.dangersOf(s),
      ...(counts ? { uses: s.uses, visits: counts.visits } : {}),
      ...(ownerView ? { health: healthView(s) } : {}),
    };
    const dto: Record<string, unknown> = {};
    for (const name of SHORT_VIEW) {
      const spec: ShortFieldSpec | undefined = (SHORT_FIELDS as Record<string, ShortFieldSpec>)[
        name
      ];
      if (spec?.shown === undefined) {
        const value = own[name as keyof ShortOwnProperties];
        if (value !== undefined) dto[name] = value;
      } else if (ownerView || spec.shown.to !== 'owner') {
        dto[name] = shownValue(s, spec, revealUrl);
      }
    }
    return dto as unknown as ShortDto;
  }

  /**
   * Whether a short is dangerous: flagged, or any of its targets (every url-typed field, a rule's
   * url) is on the blacklist now.
   */
  private dangersOf(s: ShortEntity): boolean {
    if (s.dangerous) return true;
    const listed = (url: string | null) => !!url && this.blacklist.isBlacklisted(url);
    for (const column of URL_COLUMNS) if (listed(s[column] as string | null)) return true;
    for (const column of RULES_COLUMNS) {
      const rules = s[column] as RedirectRule[] | null;
      if (rules?.some((r) => listed(r.url))) return true;
    }
    return false;
  }

  /**
   * The link of a short to share: `{BASE_URL}/s/{code}` on this service's host, `{scheme}://{domain}/
   * {code}` on an own domain (no `/s/`: short is the point; the scheme is BASE_URL's).
   */
  shortUrl(code: string, domain = ''): string {
    const c = encodeURIComponent(code);
    return domain ? `${new URL(this.baseUrl).protocol}//${domain}/${c}` : `${this.baseUrl}/s/${c}`;
  }

  // ---------------------------------------------------------------- own list

  /**
   * A space's shorts (the caller's own, or a team's the caller may read: see AccessPolicy
   * readableTeam), expired and exhausted ones included; they always show the url. `ownerName`:
   * the own space's owner's username (the caller's, as the request read it), shown as every
   * short's owner without reading it again.
   */
  async listOwn(
    space: Space,
    req: PageRequest,
    filter: OwnFilter = {},
    ownerName?: string,
  ): Promise<Page<ShortDto>> {
    const domain =
      filter.domain === undefined
        ? undefined
        : filter.domain === MAIN_HOST_FILTER
          ? ''
          : (requestHost(filter.domain) ?? filter.domain);
    // The visits are read with the page, by the statistics' expression (no second query).
    const [rows, total] = await this.shorts.listOwn(
      space,
      req,
      { ...filter, domain },
      ownerName,
      this.visitsOrder('s'),
    );
    return toPage(
      rows.map(({ short, visits }) => this.toDto(short, true, { visits })),
      total,
      req,
    );
  }

  /**
   * The tags of a space's shorts (the caller's own, or a team's the caller may read) with how many
   * of its shorts carry each, most used first (ties by tag), at most MAX_TAG_COUNTS.
   */
  tagCounts(space: Space): Promise<Array<{ tag: string; count: number }>> {
    return this.shorts.tagCounts(space, MAX_TAG_COUNTS);
  }

  /**
   * The owner's shorts after `afterId` in id order, `limit` at a time, with their visits (keyset
   * paging: an export reads 100 or 100,000 shorts in the same memory).
   */
  async ownedAfter(
    space: Space,
    afterId: string | null,
    limit: number,
  ): Promise<{ page: ShortEntity[]; visits: Map<string, number> }> {
    const page = await this.shorts.pageOwnedAfter(space, afterId, limit);
    const visits = await this.visitsOf(page.map((s) => s.id));
    return { page, visits };
  }
}
