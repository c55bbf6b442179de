import { Inject, Injectable, Logger, type Provider } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, APP_VERSION, type AppConfig } from '../config/config';
import {
  DefaultAddressPolicy,
  METADATA_ADDRESS_POLICY,
  type AddressPolicy,
} from './address-policy';
import { EMPTY_META, extractMeta, type ShortMeta } from './html-meta';
import {
  DEFAULT_FETCH_LIMITS,
  METADATA_FETCH_LIMITS,
  METADATA_RESOLVER,
  SafeFetchError,
  decodeBody,
  safeFetchHtml,
  systemResolver,
  type FetchLimits,
  type Resolver,
} from './safe-fetch';

export const METADATA_TTL_MS = 24 * 60 * 60 * 1000;
export const METADATA_FAILURE_TTL_MS = 5 * 60 * 1000;
const METADATA_CACHE_SIZE = 5_000;

export const METADATA_USER_AGENT = `URL-Shorter/${APP_VERSION} (metadata)`;

/** Origin only: never log paths or query strings of targets (they may carry tokens). */
function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}

/** Title, description and image of a short's target page, fetched SSRF-safely and cached. */
@Injectable()
export class MetadataService {
  private readonly logger = new Logger(MetadataService.name);
  private readonly cache = new LRUCache<string, ShortMeta>({
    max: METADATA_CACHE_SIZE,
    ttl: METADATA_TTL_MS,
  });
  /** Concurrent requests for the same target share one fetch. */
  private readonly inFlight = new Map<string, Promise<ShortMeta>>();

  constructor(
    @Inject(METADATA_ADDRESS_POLICY) private readonly policy: AddressPolicy,
    @Inject(METADATA_RESOLVER) private readonly resolver: Resolver,
    @Inject(METADATA_FETCH_LIMITS) private readonly limits: FetchLimits,
  ) {}

  /** Never throws: any failure is the all-null metadata. */
  async forUrl(url: string): Promise<ShortMeta> {
    const hit = this.cache.get(url);
    if (hit) return hit;
    let pending = this.inFlight.get(url);
    if (!pending) {
      pending = this.load(url).finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, pending);
    }
    return pending;
  }

  /** What is held for a target already (a link card's empty parts); never fetches. */
  cached(url: string): ShortMeta | undefined {
    return this.cache.get(url);
  }

  private async load(url: string): Promise<ShortMeta> {
    try {
      const page = await safeFetchHtml(url, this.policy, this.resolver, this.limits);
      const meta = Object.freeze(extractMeta(decodeBody(page.body, page.charset)));
      this.cache.set(url, meta);
      return meta;
    } catch (err) {
      const reason = err instanceof SafeFetchError ? err.reason : 'unexpected';
      if (!(err instanceof SafeFetchError)) {
        this.logger.warn(
          `Metadata fetch for ${origin(url)} failed unexpectedly: ${(err as Error)?.name}`,
        );
      } else {
        this.logger.debug(`Metadata fetch for ${origin(url)} failed: ${reason}`);
      }
      this.cache.set(url, EMPTY_META, { ttl: METADATA_FAILURE_TTL_MS });
      return EMPTY_META;
    }
  }
}

/** Providers of the metadata feature; tests override the policy, resolver or limits tokens. */
export const metadataProviders: Provider[] = [
  {
    provide: METADATA_ADDRESS_POLICY,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig): AddressPolicy =>
      new DefaultAddressPolicy(config.metadataAllowedPorts, config.metadataAllowLoopback),
  },
  { provide: METADATA_RESOLVER, useValue: systemResolver },
  {
    provide: METADATA_FETCH_LIMITS,
    useValue: { ...DEFAULT_FETCH_LIMITS, userAgent: METADATA_USER_AGENT },
  },
  MetadataService,
];
