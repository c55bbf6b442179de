import { Inject, Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { isFollowRequest } from '../shared/follow-path';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { acceptedLanguage, LANGUAGES, type Language } from '../shared/language';
import { buildRuntimeConfig, injectRuntimeConfig, type RuntimeConfig } from './runtime-config';
import {
  type Asset,
  AssetStore,
  chooseVariant,
  hasCompressed,
  makeRenderedAsset,
  NO_CACHE,
  variants,
} from './web-assets';

/**
 * Requests the server answers itself; the web client never catches them: /api/**, /management/**,
 * and follows (see follow-path.ts).
 */
export function isServerRequest(req: Request): boolean {
  return /^\/(api|management)(\/|$)/.test(req.path) || isFollowRequest(req.method, req.originalUrl);
}

/** A client route gets index.html; a path with a file extension that does not exist is a 404. */
export function looksLikeFile(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]{1,12}$/.test(last);
}

/**
 * Content-Security-Policy of the client's pages: scripts only from this origin (the runtime-config
 * island is JSON, never executed), inline styles for react-bootstrap, images from https (short
 * metadata, gravatar), fetches to this origin plus an external Unleash and the browser Sentry DSN.
 */
export function contentSecurityPolicy(config: AppConfig): string {
  const connect = new Set(["'self'"]);
  for (const u of [config.unleashUrl, config.sentryDsnWeb]) {
    if (!u) continue;
    try {
      connect.add(new URL(u).origin);
    } catch {
      // validated at boot; nothing to add
    }
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src ${[...connect].join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Folders the start already said hold no built client. */
const WARNED_DIRS = new Set<string>();

/** Serves the built client (dist/web) with an SPA fallback, after nothing the API owns. */
@Injectable()
export class WebMiddleware implements NestMiddleware {
  private readonly logger = new Logger('Web');
  private readonly store: AssetStore;
  /** index.html per language (its `<html lang>`, title and description), rendered once. */
  private index: Map<Language, Asset> | undefined;
  private warned = false;
  private readonly csp: string;
  private readonly rc: RuntimeConfig;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.store = new AssetStore(config.web.dir);
    this.csp = contentSecurityPolicy(config);
    this.rc = buildRuntimeConfig(config);
    // Rendered and compressed once, at start (later only if the build appears after the start).
    this.indexAsset(this.rc.defaultLanguage);
    if (this.store.skipped > 0)
      this.logger.warn(
        `${config.web.dir} holds more files than a build; ${this.store.skipped} are not served`,
      );
  }

  /**
   * index.html in the visitor's language as far as the server can tell (CONTRACT "Language"): with
   * the language switch on (the default), the first language of Accept-Language the product
   * speaks, else DEFAULT_LANGUAGE; with it off (or an external flag service), DEFAULT_LANGUAGE.
   */
  private languageOf(req: Request): Language {
    if (!this.rc.languageSwitch) return this.rc.defaultLanguage;
    return acceptedLanguage(req.headers['accept-language'], this.rc.defaultLanguage);
  }

  private indexAsset(lang: Language): Asset | null {
    if (this.index) return this.index.get(lang) ?? null;
    if (!this.store.hasIndex()) {
      // Not cached: the client may be built after the server started.
      // Once per folder: Nest makes this class twice (the provider and the middleware).
      if (!this.warned && !WARNED_DIRS.has(this.config.web.dir))
        this.logger.warn(`No built web client in ${this.config.web.dir} (run npm run build)`);
      WARNED_DIRS.add(this.config.web.dir);
      this.warned = true;
      return null;
    }
    const template = this.store.readIndexTemplate();
    this.index = new Map(
      LANGUAGES.map((l) => {
        const html = injectRuntimeConfig(template, this.rc, l);
        return [l, makeRenderedAsset(Buffer.from(html, 'utf8'), '.html', NO_CACHE)] as const;
      }),
    );
    return this.index.get(lang) ?? null;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    if (isServerRequest(req)) return next();
    let asset = path === '/' || path === '/index.html' ? null : this.store.file(path);
    if (!asset) {
      if (looksLikeFile(path) && path !== '/index.html') return next();
      asset = this.indexAsset(this.languageOf(req));
      if (!asset) return next();
      if (this.rc.languageSwitch) res.setHeader('Vary', 'Accept-Language');
    }
    this.send(req, res, asset);
  }

  /** Sends the file as built: the compressed copy the client takes, else the file itself. */
  private send(req: Request, res: Response, asset: Asset): void {
    res.setHeader('Content-Type', asset.type);
    if (asset.type.startsWith('text/html')) res.setHeader('Content-Security-Policy', this.csp);
    res.setHeader('Cache-Control', asset.cacheControl);
    if (hasCompressed(asset)) res.appendHeader('Vary', 'Accept-Encoding');
    const inm = req.headers['if-none-match'];
    if (inm) {
      const tags = inm.split(',').map((t) => t.trim().replace(/^W\//, ''));
      const match = tags.includes('*')
        ? chooseVariant(asset, req.headers['accept-encoding'])
        : variants(asset).find((v) => tags.includes(v.etag));
      if (match) {
        // The tag of the stored response that is still valid, so a cache knows which one it is.
        res.setHeader('ETag', match.etag);
        res.statusCode = 304;
        res.end();
        return;
      }
    }
    const variant = chooseVariant(asset, req.headers['accept-encoding']);
    res.setHeader('ETag', variant.etag);
    if (variant.encoding) res.setHeader('Content-Encoding', variant.encoding);
    res.setHeader('Content-Length', String(variant.body.length));
    res.statusCode = 200;
    res.end(req.method === 'HEAD' ? undefined : variant.body);
  }
}
