import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AccessPolicy, type Owned, teamForbidden } from '../access/access-policy';
import { activeActor, type Actor, isAdmin } from '../common/actor';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dbTimeMs } from '../database/columns';
import { dialectSql, engineOf, placeholders } from '../database/dialect';
import { isForeignKeyViolation, isUniqueViolation } from '../database/errors';
import { rows, run, runTx, type Row } from '../database/tx';
import { DomainService } from '../domains/domain.service';
import { RateLimitService } from '../limits/rate-limit.service';
import { CacheBus } from '../redis/cache-bus';
import { CUSTOM_CODE_PATTERN, isReservedCode } from '../shared/limits';
import {
  LIMIT_PAGES,
  PAGE_DESCRIPTION_MAX,
  PAGE_LABEL_MAX,
  PAGE_TITLE_MAX,
  type PageTheme,
  pagePath,
} from '../shared/pages';
import { ShortViewService } from '../shorts/short-view.service';
import type {
  CreatePageDto,
  PageDto,
  PageLinkDto,
  PageLinkInputDto,
  UpdatePageDto,
} from './dto/page.dto';
import { PAGE_CHANGED_CHANNEL, pageChangeMessage } from './page-events';

export const pageNotFound = () => new NotFoundError('Entity Page not exists', 'entity_not_exists');
const notOwner = () =>
  new ForbiddenError('Only the owner, its team’s editors or an admin may do this', 'not_owner');
const slugExists = () => new ConflictError('Slug already exists', 'slug_exists');
const quota = () =>
  new ConflictError(
    `Quota exceeded: at most ${LIMIT_PAGES} pages per user or team`,
    'quota_exceeded',
  );

/** A page as read with its team's name. */
export interface PageRow {
  id: string;
  slug: string;
  ownerId: string | null;
  teamId: string | null;
  teamName: string | null;
  title: string;
  description: string | null;
  theme: PageTheme;
  createdAt: Date;
  updatedAt: Date;
}

/** A page's link with what the page needs of its short. */
export interface LinkRow {
  shortId: string;
  label: string | null;
  code: string;
  domain: string;
  name: string | null;
  expireAt: number | null;
  maxUses: number | null;
  uses: number;
  dangerous: boolean;
}

/**
 * Whether a short shows on a public page now: not expired, not run out of uses, not flagged
 * dangerous (CONTRACT "Marketing links": such links are left out).
 */
export function linkShown(l: LinkRow, now = Date.now()): boolean {
  if (l.dangerous) return false;
  if (l.expireAt !== null && l.expireAt <= now) return false;
  return l.maxUses === null || l.uses < l.maxUses;
}

export function linkRowOf(r: Row): LinkRow {
  const expire = r.expire_at === null || r.expire_at === undefined ? null : dbTimeMs(r.expire_at);
  return {
    shortId: String(r.short_id),
    label: (r.label as string | null) ?? null,
    code: String(r.code),
    domain: (r.domain as string | null) ?? '',
    name: (r.name as string | null) ?? null,
    expireAt: expire,
    maxUses: r.max_uses === null || r.max_uses === undefined ? null : Number(r.max_uses),
    uses: Number(r.uses ?? 0),
    dangerous: Number(r.dangerous) === 1 || r.dangerous === true,
  };
}

/** The link columns of a page's links joined with their shorts (`l`: page_links, `s`: shorts). */
export const LINK_COLUMNS =
  'l.short_id AS short_id, l.label AS label, s.code AS code, s.domain AS domain, s.name AS name, s.expire_at AS expire_at, s.max_uses AS max_uses, s.uses AS uses, s.dangerous AS dangerous';

function pageRowOf(r: Row): PageRow {
  return {
    id: String(r.id),
    slug: String(r.slug),
    ownerId: (r.owner_id as string | null) ?? null,
    teamId: (r.team_id as string | null) ?? null,
    teamName: (r.team_name as string | null) ?? null,
    title: String(r.title),
    description: (r.description as string | null) ?? null,
    theme: r.theme as PageTheme,
    createdAt: new Date(dbTimeMs(r.created_at)),
    updatedAt: new Date(dbTimeMs(r.updated_at)),
  };
}

const PAGE_SELECT =
  'SELECT p.id, p.slug, p.owner_id, p.team_id, t.name AS team_name, p.title, p.description, p.theme, p.created_at, p.updated_at FROM pages p LEFT JOIN teams t ON t.id = p.team_id';

/** A label, title or description trimmed; empty: null. */
function trimmed(v: string | null | undefined): string | null {
  const s = v?.trim() ?? '';
  return s === '' ? null : s;
}

const length = (s: string) => [...s].length;

/**
 * Link pages (CONTRACT "Marketing links"): a user's or a team's pages of links, their rules
 * (slugs as custom codes, unique per instance; bounds; at most LIMIT_PAGES per user or team; the
 * create limit of every create) and rights (AccessPolicy: a page's owner or its team's writers
 * change it, its team's members read it; admins everything). A page's links are shorts the caller
 * may read in the page's space. The public page itself is PageRenderer's.
 */
@Injectable()
export class PagesService {
  private readonly timeoutMs: number;
  private readonly baseUrl: string;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly policy: AccessPolicy,
    private readonly limits: RateLimitService,
    private readonly shorts: ShortViewService,
    private readonly bus: CacheBus,
    private readonly domains: DomainService,
  ) {
    this.timeoutMs = config.dbTimeoutMs;
    this.baseUrl = config.baseUrl;
  }

  /** Drops a page (by id and by the slugs it had or has) from the public cache of every instance. */
  private changed(id: string, ...slugs: Array<string | undefined>): void {
    const named = [...new Set(slugs.filter((x): x is string => !!x))];
    this.bus.publish(PAGE_CHANGED_CHANNEL, pageChangeMessage(id, named));
  }

  private sql(text: string): string {
    return dialectSql(engineOf(this.ds), text);
  }

  private actor(caller: Actor | null): Actor {
    const a = activeActor(caller);
    if (!a) throw new UnauthorizedError();
    return a;
  }

  /** A page's space for the access policy (an own page: its creator; a team's: the team). */
  private owned(p: Pick<PageRow, 'ownerId' | 'teamId'>): Owned {
    return { ownerId: p.teamId ? null : p.ownerId, teamId: p.teamId };
  }

  // ---------------------------------------------------------------- reads

  async list(caller: Actor | null, team: string | undefined): Promise<PageDto[]> {
    const actor = this.actor(caller);
    const teamId = await this.policy.readableTeam(actor, team);
    const teams = teamId ? [teamId] : await this.policy.readableTeams(actor);
    const where: string[] = [];
    const params: unknown[] = [];
    if (!teamId && !actor.key?.teamId) {
      where.push('(p.owner_id = ? AND p.team_id IS NULL)');
      params.push(actor.id);
    }
    if (teams.length) {
      where.push(`p.team_id IN (${placeholders(teams.length)})`);
      params.push(...teams);
    }
    if (!where.length) return [];
    const found = (
      (await this.ds.query(
        this.sql(`${PAGE_SELECT} WHERE ${where.join(' OR ')} ORDER BY p.created_at, p.id`),
        params,
      )) as Row[]
    ).map(pageRowOf);
    const links = await this.linksOf(found.map((p) => p.id));
    return found.map((p) => this.toDto(p, links.get(p.id) ?? []));
  }

  async get(id: string, caller: Actor | null): Promise<PageDto> {
    const p = await this.managed(id, caller, 'read');
    return this.toDto(p, (await this.linksOf([p.id])).get(p.id) ?? []);
  }

  /** The page `id` when the caller may `access` it (401, 403 `not_owner`, 404 `entity_not_exists`). */
  async managed(id: string, caller: Actor | null, access: 'read' | 'write'): Promise<PageRow> {
    const actor = this.actor(caller);
    const p = await this.find(id);
    if (!p) throw pageNotFound();
    if (!(await this.policy.may(actor, this.owned(p), access))) throw notOwner();
    return p;
  }

  /** A page by id, or null (an own page whose creator is gone counts as gone). */
  async find(id: string, orphans = false): Promise<PageRow | null> {
    const [r] = (await this.ds.query(this.sql(`${PAGE_SELECT} WHERE p.id = ?`), [id])) as Row[];
    if (!r) return null;
    const p = pageRowOf(r);
    return !orphans && p.ownerId === null && p.teamId === null ? null : p;
  }

  /**
   * Whether page `pageId` may be the home page of a domain of `space` (CONTRACT "Own domains"): a
   * page of the domain's team, or of its owner's own space; any page for a shared domain (no owner,
   * no team: admins').
   */
  async mayBeHomeOf(pageId: string, space: Owned): Promise<boolean> {
    const p = await this.find(pageId);
    if (!p) return false;
    if (space.teamId) return p.teamId === space.teamId;
    if (space.ownerId) return p.teamId === null && p.ownerId === space.ownerId;
    return true;
  }

  private async linksOf(ids: readonly string[]): Promise<Map<string, LinkRow[]>> {
    const out = new Map<string, LinkRow[]>();
    if (!ids.length) return out;
    const found = (await this.ds.query(
      this.sql(
        `SELECT l.page_id AS page_id, ${LINK_COLUMNS} FROM page_links l JOIN shorts s ON s.id = l.short_id WHERE l.page_id IN (${placeholders(ids.length)}) ORDER BY l.page_id, l.position`,
      ),
      [...ids],
    )) as Row[];
    for (const r of found) {
      const key = String(r.page_id);
      let list = out.get(key);
      if (!list) out.set(key, (list = []));
      list.push(linkRowOf(r));
    }
    return out;
  }

  // ---------------------------------------------------------------- writes

  async create(dto: CreatePageDto, caller: Actor | null): Promise<PageDto> {
    const actor = this.actor(caller);
    const teamId = await this.policy.writableTeam(actor, dto.team);
    const fields = this.checked(dto);
    const links = await this.checkedLinks(dto.links, actor, teamId);
    if (!isAdmin(actor)) await this.limits.take('userCreate', actor.id);
    const id = randomUUID();
    const now = new Date();
    const spaceTable = teamId ? 'teams' : 'users';
    const spaceId = teamId ?? actor.id;
    const where = teamId ? 'team_id = ?' : 'owner_id = ? AND team_id IS NULL';
    const f = fields as Required<typeof fields>;
    const outcome = await this.write(
      runTx(this.ds, this.timeoutMs, function* ({ lock }) {
        const space = (yield rows(
          `SELECT id FROM ${spaceTable} WHERE id = ?${lock}`,
          spaceId,
        )) as Row[];
        if (space.length === 0) return 'gone' as const;
        const [count] = (yield rows(
          `SELECT COUNT(*) AS n FROM pages WHERE ${where}`,
          spaceId,
        )) as Row[];
        if (Number(count.n) >= LIMIT_PAGES) return 'quota' as const;
        yield run(
          'INSERT INTO pages (id, slug, owner_id, team_id, title, description, theme, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          id,
          f.slug,
          actor.id,
          teamId,
          f.title,
          f.description,
          f.theme,
          now,
          now,
        );
        for (const [i, l] of links.entries()) {
          yield run(
            'INSERT INTO page_links (page_id, position, short_id, label) VALUES (?, ?, ?, ?)',
            id,
            i,
            l.shortId,
            l.label,
          );
        }
        return 'ok' as const;
      }),
    );
    if (outcome === 'quota') throw quota();
    if (outcome === 'gone') throw new UnauthorizedError();
    // A view of the slug before it existed may have cached its absence.
    this.changed(id, f.slug);
    return this.get(id, actor);
  }

  async update(id: string, dto: UpdatePageDto, caller: Actor | null): Promise<PageDto> {
    const actor = this.actor(caller);
    const p = await this.managed(id, actor, 'write');
    const fields = this.checked(dto);
    const move = await this.moveOf(p, dto.team, actor);
    const teamId = move ? move.teamId : p.teamId;
    // A move checks the links against the new space: the ones sent, else the page's own.
    const given =
      dto.links ??
      (move
        ? ((await this.linksOf([p.id])).get(p.id) ?? []).map((l) => ({
            shortId: l.shortId,
            label: l.label,
          }))
        : undefined);
    const checkedLinks =
      given === undefined ? undefined : await this.checkedLinks(given, actor, teamId);
    const links = dto.links === undefined ? undefined : checkedLinks;
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(value);
    }
    if (move) {
      sets.push('team_id = ?', 'owner_id = ?');
      params.push(move.teamId, move.ownerId);
    }
    const now = new Date();
    const outcome = await this.write(
      runTx(this.ds, this.timeoutMs, function* ({ lock }) {
        if (move) {
          // The new space's cap, counted under its row's lock (as a create counts).
          const table = move.teamId ? 'teams' : 'users';
          const spaceId = move.teamId ?? move.ownerId;
          const space = (yield rows(
            `SELECT id FROM ${table} WHERE id = ?${lock}`,
            spaceId,
          )) as Row[];
          if (space.length === 0) return 'gone' as const;
          const where = move.teamId ? 'team_id = ?' : 'owner_id = ? AND team_id IS NULL';
          const [count] = (yield rows(
            `SELECT COUNT(*) AS n FROM pages WHERE ${where} AND id <> ?`,
            spaceId,
            id,
          )) as Row[];
          if (Number(count.n) >= LIMIT_PAGES) return 'quota' as const;
        }
        yield run(
          `UPDATE pages SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`,
          ...params,
          now,
          id,
        );
        if (links) {
          yield run('DELETE FROM page_links WHERE page_id = ?', id);
          for (const [i, l] of links.entries()) {
            yield run(
              'INSERT INTO page_links (page_id, position, short_id, label) VALUES (?, ?, ?, ?)',
              id,
              i,
              l.shortId,
              l.label,
            );
          }
        }
        return 'ok' as const;
      }),
    );
    if (outcome === 'quota') throw quota();
    if (outcome === 'gone') throw teamForbidden();
    this.changed(id, p.slug, fields.slug);
    // A domain of the old space that shows it at its `/` does so no more.
    if (move) await this.domains.releaseHomePage(id);
    return this.get(id, actor);
  }

  /**
   * Where `PATCH {team}` moves a page (CONTRACT "Teams", as a short moves): a team the caller may
   * write in, or (null) out of a team into the caller's own space (never through a team's key);
   * undefined when the page stays where it is.
   */
  private async moveOf(
    p: PageRow,
    team: string | null | undefined,
    actor: Actor,
  ): Promise<{ teamId: string | null; ownerId: string } | undefined> {
    if (team === undefined) return undefined;
    const teamId = await this.policy.writableTeam(actor, team);
    if (teamId === p.teamId) return undefined;
    if (teamId === null) return { teamId: null, ownerId: actor.id };
    return { teamId, ownerId: p.ownerId ?? actor.id };
  }

  async delete(id: string, caller: Actor | null): Promise<void> {
    const actor = this.actor(caller);
    // An admin also removes a page whose creator is gone (before the sweep does).
    const p = isAdmin(actor) ? await this.find(id, true) : await this.managed(id, actor, 'write');
    if (!p) throw pageNotFound();
    await this.ds.query(this.sql('DELETE FROM pages WHERE id = ?'), [p.id]);
    this.changed(p.id, p.slug);
  }

  /** Removes own pages whose creator was deleted (nobody may see or change them). */
  async sweepOrphans(): Promise<number> {
    const res = (await this.ds
      .createQueryBuilder()
      .delete()
      .from('pages')
      .where('owner_id IS NULL AND team_id IS NULL')
      .execute()) as { affected?: number | null };
    return res.affected ?? 0;
  }

  /** A write's unique and foreign-key refusals as the API's (409 slug_exists, 400 page_link_invalid). */
  private async write<T>(w: Promise<T>): Promise<T> {
    try {
      return await w;
    } catch (err) {
      if (isUniqueViolation(err)) throw slugExists();
      if (isForeignKeyViolation(err)) throw linkInvalid('links', 'a short is gone');
      throw err;
    }
  }

  /** The plain fields checked and normalised (undefined: not given). */
  private checked(dto: UpdatePageDto): {
    slug?: string;
    title?: string;
    description?: string | null;
    theme?: PageTheme;
  } {
    const out: ReturnType<PagesService['checked']> = {};
    const errors: Record<string, string> = {};
    if (dto.slug !== undefined) {
      if (!CUSTOM_CODE_PATTERN.test(dto.slug)) {
        throw new BadRequestError('Slug must be 3 to 64 of A-Z, a-z, 0-9, _ and -', 'slug_invalid');
      }
      if (isReservedCode(dto.slug)) throw new BadRequestError('Slug is reserved', 'slug_reserved');
      out.slug = dto.slug;
    }
    if (dto.title !== undefined) {
      const title = trimmed(dto.title);
      if (title === null || length(title) > PAGE_TITLE_MAX) {
        errors.title = `must be 1 to ${PAGE_TITLE_MAX} characters`;
      } else out.title = title;
    }
    if (dto.description !== undefined) {
      const d = trimmed(dto.description);
      if (d !== null && length(d) > PAGE_DESCRIPTION_MAX) {
        errors.description = `must be at most ${PAGE_DESCRIPTION_MAX} characters`;
      } else out.description = d;
    }
    if (dto.theme !== undefined) out.theme = dto.theme;
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    return out;
  }

  /**
   * The links checked: each short exists and is one the caller may read, of the page's space
   * (`teamId`: the team's shorts; null: his own space's). Else 400 `page_link_invalid` naming the
   * link (an unknown short and a stranger's look alike).
   */
  private async checkedLinks(
    links: readonly PageLinkInputDto[],
    actor: Actor,
    teamId: string | null,
  ): Promise<Array<{ shortId: string; label: string | null }>> {
    const out = links.map((l) => ({ shortId: l.shortId, label: trimmed(l.label) }));
    out.forEach((l, i) => {
      if (l.label !== null && length(l.label) > PAGE_LABEL_MAX) {
        throw linkInvalid(`links[${i}].label`, `must be at most ${PAGE_LABEL_MAX} characters`);
      }
    });
    const ids = [...new Set(out.map((l) => l.shortId))];
    if (!ids.length) return out;
    const found = (await this.ds.query(
      this.sql(
        `SELECT id, owner_id, team_id FROM shorts WHERE id IN (${placeholders(ids.length)})`,
      ),
      ids,
    )) as Row[];
    const spaces = new Map(
      found.map((r) => [
        String(r.id),
        {
          ownerId: (r.owner_id as string | null) ?? null,
          teamId: (r.team_id as string | null) ?? null,
        },
      ]),
    );
    for (const [i, l] of out.entries()) {
      const s = spaces.get(l.shortId);
      const fits =
        s !== undefined &&
        s.teamId === teamId &&
        (s.ownerId !== null || s.teamId !== null) &&
        (await this.policy.may(actor, s, 'read'));
      if (!fits) {
        throw linkInvalid(
          `links[${i}].shortId`,
          'must be a short you may read, of the page’s space',
        );
      }
    }
    return out;
  }

  toDto(p: PageRow, links: readonly LinkRow[]): PageDto {
    const now = Date.now();
    return {
      id: p.id,
      slug: p.slug,
      url: `${this.baseUrl}${pagePath(p.slug)}`,
      title: p.title,
      description: p.description,
      theme: p.theme,
      team: p.teamId ? { id: p.teamId, name: p.teamName ?? '' } : null,
      links: links.map((l): PageLinkDto => ({
        shortId: l.shortId,
        label: l.label,
        code: l.code,
        name: l.name,
        shortUrl: this.shorts.shortUrl(l.code, l.domain),
        shown: linkShown(l, now),
      })),
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    };
  }
}

/** A link the page may not take: 400 `page_link_invalid` with the link's field error. */
export class PageLinkInvalid extends ValidationFailedError {
  override readonly errorKey = 'page_link_invalid';

  constructor(field: string, why: string) {
    super({ [field]: why }, { [field]: 'page_link_invalid' });
  }
}

function linkInvalid(field: string, why: string): PageLinkInvalid {
  return new PageLinkInvalid(field, why);
}
