import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { noStore } from '../common/no-store';
import { SECURITY_HEADERS } from '../common/security-headers';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import type { Row } from '../database/tx';
import { isBotAgent } from '../follow/follow-http';
import { acceptedLanguage, type Language } from '../shared/language';
import type { PageTheme } from '../shared/pages';
import { ShortViewService } from '../shorts/short-view.service';
import { PAGE_CSP, pageHtml, pageNotFoundHtml, type PageView } from './page-html';
import { PageViews } from './page-views';
import { LINK_COLUMNS, linkRowOf, linkShown } from './pages.service';

/** A page read for its public view: its id (views are counted by it) and what it shows. */
export interface PublicPage {
  id: string;
  view: PageView;
}

/**
 * The public side of link pages: `/p/{slug}` on the main host and an own domain's `/` when the
 * domain names a home page. One query per view (the page, its links and their shorts in one
 * join, by the slug's unique index or the page's key), rendered on the server without script; the
 * view is counted in memory (PageViews).
 */
@Injectable()
export class PageRenderer {
  private readonly bySlugSql: string;
  private readonly byIdSql: string;
  private readonly defaultLanguage: Language;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly views: PageViews,
    private readonly shorts: ShortViewService,
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
  }

  /** The page of a slug, or null. */
  async bySlug(slug: string): Promise<PublicPage | null> {
    return this.read(this.bySlugSql, slug);
  }

  /** The page of an id, or null. */
  async byId(id: string): Promise<PublicPage | null> {
    return this.read(this.byIdSql, id);
  }

  private async read(sql: string, key: string): Promise<PublicPage | null> {
    const found = (await this.ds.query(sql, [key])) as Row[];
    if (!found.length) return null;
    const first = found[0];
    const now = Date.now();
    const links: Array<{ text: string; href: string }> = [];
    for (const r of found) {
      if (r.short_id === null || r.short_id === undefined || r.code === null) continue;
      const l = linkRowOf(r);
      if (!linkShown(l, now)) continue;
      links.push({
        text: l.label ?? l.name ?? l.code,
        href: this.shorts.shortUrl(l.code, l.domain),
      });
    }
    return {
      id: String(first.id),
      view: {
        title: String(first.title),
        description: (first.description as string | null) ?? null,
        theme: first.theme as PageTheme,
        links,
      },
    };
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
