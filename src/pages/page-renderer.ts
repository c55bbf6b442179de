import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { noStore } from '../common/no-store';
import { SECURITY_HEADERS } from '../common/security-headers';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import type { Row } from '../database/tx';
import { isBotAgent } from '../follow/follow-http';
import { acceptedLanguage, type Language } from '../shared/language';
import type { PageTheme } from '../shared/pages';
import { CacheBus } from '../redis/cache-bus';
import { followKey, SHORT_CHANGED_CHANNEL } from '../shorts/short-events';
import { ShortViewService } from '../shorts/short-view.service';
import { PAGE_CHANGED_CHANNEL, parsePageChange } from './page-events';
import { PAGE_CSP, pageHtml, pageNotFoundHtml, type PageView } from './page-html';
import { PageViews } from './page-views';
import { LINK_COLUMNS, type LinkRow, linkRowOf, linkShown } from './pages.service';

/** A page read for its public view: its id (views are counted by it) and what it shows. */
export interface PublicPage {
  id: string;
  view: PageView;
}

/** A page as read from the database and cached: which links show is decided per view. */
interface StoredPage {
  id: string;
  title: string;
  description: string | null;
  theme: PageTheme;
  links: LinkRow[];
  /** The follow keys of its shorts (a change to one of them drops the page). */
  shortKeys: Set<string>;
}

/** A slug or id with no page (cached shortly, so a flood of unknown slugs is not a read each). */
const MISSING = { missing: true } as const;
type CacheValue = StoredPage | typeof MISSING;
const isPage = (v: CacheValue): v is StoredPage => v !== MISSING;

/** Pages (and absent slugs) kept in memory at most, and for how long. */
export const PAGE_CACHE_MAX = 1_000;
export const PAGE_CACHE_TTL_MS = 5_000;
const MISSING_TTL_MS = 2_000;

/**
 * The public side of link pages: `/p/{slug}` on the main host and an own domain's `/` when the
 * domain names a home page. A page is read in one query (the page, its links and their shorts in
 * one join, by the slug's unique index or the page's key) and kept a few seconds in a bounded
 * in-process LRU (by slug and by id; an absent slug 2 s), dropped on every instance when the page
 * or one of its shorts changes (cache bus) and whole after a Redis outage; concurrent misses of
 * one key share one read. Which links show (expiry, danger, uses) is decided per view from the
 * cached shorts. Rendered on the server without script; the view is counted in memory (PageViews).
 */
@Injectable()
export class PageRenderer {
  private readonly bySlugSql: string;
  private readonly byIdSql: string;
  private readonly defaultLanguage: Language;
  private readonly cache = new LRUCache<string, CacheValue>({
    max: PAGE_CACHE_MAX,
    ttl: PAGE_CACHE_TTL_MS,
  });
  /** Reads under way by cache key (only while they run: bounded by the requests). */
  private readonly loading = new Map<string, Promise<StoredPage | null>>();
  /** Bumped by every invalidation: a read that began before it is not cached. */
  private generation = 0;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly views: PageViews,
    private readonly shorts: ShortViewService,
    bus: CacheBus,
  ) {
    const engine = engineOf(ds);
    const select = (where: string) =>
      dialectSql(
        engine,
        `SELECT p.id AS id, p.title AS title, p.description AS description, p.theme AS theme, ${LINK_COLUMNS} FROM pages p LEFT JOIN page_links l ON l.page_id = p.id LEFT JOIN shorts s ON s.id = l.short_id WHERE ${where} AND (p.owner_id IS NOT NULL OR p.team_id IS NOT NULL) ORDER BY l.position`,
      );
    this.bySlugSql = select('p.slug = ?');
    this.byIdSql = select('p.id = ?');
    this.defaultLanguage = config.web.defaultLanguage;
    bus.on(PAGE_CHANGED_CHANNEL, (message) => this.pageChanged(message));
    bus.on(SHORT_CHANGED_CHANNEL, (key) => this.shortChanged(key));
    bus.onResync(() => this.clear());
  }

  /** The page of a slug, or null. */
  bySlug(slug: string): Promise<PublicPage | null> {
    return this.lookup(`s:${slug}`, this.bySlugSql, slug);
  }

  /** The page of an id, or null. */
  byId(id: string): Promise<PublicPage | null> {
    return this.lookup(`i:${id}`, this.byIdSql, id);
  }

  /** Pages and absences held in the cache (tests, metrics). */
  get cached(): number {
    return this.cache.size;
  }

  private async lookup(cacheKey: string, sql: string, key: string): Promise<PublicPage | null> {
    const hit = this.cache.get(cacheKey);
    if (hit) return isPage(hit) ? this.publicOf(hit) : null;
    let loading = this.loading.get(cacheKey);
    if (!loading) {
      const generation = this.generation;
      const read = this.read(sql, key);
      loading = read;
      this.loading.set(cacheKey, read);
      read
        .then((page) => {
          if (generation !== this.generation) return;
          if (page) this.cache.set(cacheKey, page);
          else this.cache.set(cacheKey, MISSING, { ttl: MISSING_TTL_MS });
        })
        .catch(() => undefined)
        .finally(() => {
          if (this.loading.get(cacheKey) === read) this.loading.delete(cacheKey);
        });
    }
    const page = await loading;
    return page ? this.publicOf(page) : null;
  }

  private async read(sql: string, key: string): Promise<StoredPage | null> {
    const found = (await this.ds.query(sql, [key])) as Row[];
    if (!found.length) return null;
    const first = found[0];
    const links: LinkRow[] = [];
    for (const r of found) {
      if (r.short_id === null || r.short_id === undefined || r.code === null) continue;
      links.push(linkRowOf(r));
    }
    return {
      id: String(first.id),
      title: String(first.title),
      description: (first.description as string | null) ?? null,
      theme: first.theme as PageTheme,
      links,
      shortKeys: new Set(links.map((l) => followKey(l.domain, l.code))),
    };
  }

  /** What a view shows now: the links whose shorts may be followed at this moment. */
  private publicOf(p: StoredPage, now = Date.now()): PublicPage {
    const links: Array<{ text: string; href: string }> = [];
    for (const l of p.links) {
      if (!linkShown(l, now)) continue;
      links.push({
        text: l.label ?? l.name ?? l.code,
        href: this.shorts.shortUrl(l.code, l.domain),
      });
    }
    return {
      id: p.id,
      view: { title: p.title, description: p.description, theme: p.theme, links },
    };
  }

  private pageChanged(message: string): void {
    const { id, slugs } = parsePageChange(message);
    this.generation++;
    this.loading.clear();
    this.cache.delete(`i:${id}`);
    for (const slug of slugs) this.cache.delete(`s:${slug}`);
    // A slug it had that the message does not name (bounded: at most PAGE_CACHE_MAX entries).
    for (const [key, value] of this.cache.entries()) {
      if (isPage(value) && value.id === id) this.cache.delete(key);
    }
  }

  private shortChanged(key: string): void {
    let stale = false;
    for (const [cacheKey, value] of this.cache.entries()) {
      if (isPage(value) && value.shortKeys.has(key)) {
        this.cache.delete(cacheKey);
        stale = true;
      }
    }
    if (stale || this.loading.size) {
      this.generation++;
      this.loading.clear();
    }
  }

  private clear(): void {
    this.generation++;
    this.loading.clear();
    this.cache.clear();
  }

  /** The visitor's language: Accept-Language, else DEFAULT_LANGUAGE (as the bot preview). */
  languageOf(req: IncomingMessage): Language {
    return acceptedLanguage(req.headers['accept-language'], this.defaultLanguage);
  }

  /** Answers a page (200) and counts the view; or the not-found page (404) when `page` is null. */
  send(req: IncomingMessage, res: ServerResponse, page: PublicPage | null): void {
    const lang = this.languageOf(req);
    const head = req.method === 'HEAD';
    if (page) {
      const ua = req.headers['user-agent'] ?? '';
      this.views.count(page.id, head || ua === '' || isBotAgent(ua));
    }
    const body = page ? pageHtml(page.view, lang) : pageNotFoundHtml(lang);
    res.statusCode = page ? 200 : 404;
    for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
    noStore(res);
    res.setHeader('Content-Security-Policy', PAGE_CSP[page ? page.view.theme : 'auto']);
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('Content-Language', lang);
    res.setHeader('Vary', 'Accept-Language');
    if (!page) res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(head ? undefined : body);
  }
}
