import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { CacheBus } from '../redis/cache-bus';
import { BadRequestError } from '../common/errors';
import { onUniqueViolation } from '../database/errors';
import { ConflictError } from '../common/errors';
import { BlacklistEntity, type BlacklistKind } from './blacklist.entity';
import { hostMatches, normalizeHost } from './host';

const RELOAD_MS = 30_000;
const CHANGED_CHANNEL = 'blacklist-changed';

/** A second entry of the same kind and value (409). */
const entryExists = () => new ConflictError('Entity already exists');

/**
 * Holds the blacklist in memory (it is small and read on every create and follow),
 * reloaded after every local change and periodically for changes by other instances.
 * `version` changes whenever the loaded list changes, so callers can cache verdicts.
 */
@Injectable()
export class BlacklistService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BlacklistService.name);
  private hosts: string[] = [];
  private patterns: RegExp[] = [];
  private signature = '';
  private timer?: NodeJS.Timeout;
  version = 0;

  constructor(
    @InjectRepository(BlacklistEntity) private readonly repo: Repository<BlacklistEntity>,
    private readonly bus: CacheBus,
  ) {
    // Another instance changed the list: reload now rather than at the next periodic reload.
    const reload = () => {
      this.reload().catch((err: unknown) =>
        this.logger.warn(`Blacklist reload failed: ${String(err)}`),
      );
    };
    bus.on(CHANGED_CHANNEL, reload);
    // Back from a Redis outage: a change may have been missed.
    bus.onResync(reload);
  }

  /** Reloads here and tells the other instances. */
  private async changed(): Promise<void> {
    await this.reload();
    this.bus.publish(CHANGED_CHANNEL, String(this.version));
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => {
      this.reload().catch((err: unknown) =>
        this.logger.warn(`Blacklist reload failed: ${String(err)}`),
      );
    }, RELOAD_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async reload(): Promise<void> {
    const rows = await this.repo.find({ order: { createdAt: 'ASC' } });
    const signature = rows.map((r) => `${r.kind}:${r.value}`).join('\n');
    if (signature === this.signature) return;
    this.hosts = rows.filter((r) => r.kind === 'host').map((r) => r.value);
    this.patterns = [];
    for (const r of rows.filter((x) => x.kind === 'regex')) {
      try {
        this.patterns.push(new RegExp(r.value, 'i'));
      } catch {
        this.logger.warn(`Ignoring invalid blacklist pattern ${r.id}`);
      }
    }
    this.signature = signature;
    this.version++;
  }

  /**
   * True when the URL's host (or a parent domain) or a pattern is blacklisted. The host is
   * normalised only when there are hosts to compare it with (a URL parse: most of a new short's
   * first follow when the list has none).
   */
  isBlacklisted(url: string): boolean {
    if (this.hosts.length > 0) {
      const host = normalizeHost(url);
      if (host && this.hosts.some((h) => hostMatches(host, h))) return true;
    }
    return this.patterns.some((p) => p.test(url));
  }

  /** Validates and normalises an entry value (hosts normalised, patterns compiled). */
  normalizeEntry(kind: BlacklistKind, value: string): string {
    const stored = value.trim();
    if (stored.length > 512)
      throw new BadRequestError('Blacklist entries are at most 512 characters');
    if (kind === 'host') {
      const host = normalizeHost(stored);
      if (!host || host.length > 512) throw new BadRequestError('Blacklist host is not valid');
      return host;
    }
    if (!stored) throw new BadRequestError('Blacklist pattern must not be empty');
    try {
      new RegExp(stored, 'i');
    } catch {
      throw new BadRequestError('Blacklist pattern is not a valid regular expression');
    }
    return stored;
  }

  async add(
    kind: BlacklistKind,
    value: string,
    reason: string | null = null,
    id: string = randomUUID(),
  ): Promise<BlacklistEntity> {
    const stored = this.normalizeEntry(kind, value);
    const entity = this.repo.create({ id, kind, value: stored, reason, createdAt: new Date() });
    await onUniqueViolation(this.repo.insert(entity), entryExists);
    await this.changed();
    return entity;
  }

  /** Changes an entry; returns false when there is none with this id. */
  async update(
    id: string,
    patch: { kind?: BlacklistKind; value?: string; reason?: string | null },
  ): Promise<boolean> {
    const current = await this.repo.findOne({ where: { id } });
    if (!current) return false;
    const kind = patch.kind ?? current.kind;
    const value =
      patch.value !== undefined || patch.kind !== undefined
        ? this.normalizeEntry(kind, patch.value ?? current.value)
        : current.value;
    await onUniqueViolation(
      this.repo.update(
        { id },
        { kind, value, reason: patch.reason === undefined ? current.reason : patch.reason },
      ),
      entryExists,
    );
    await this.changed();
    return true;
  }

  async remove(id: string): Promise<boolean> {
    const res = await this.repo.delete({ id });
    await this.changed();
    return (res.affected ?? 0) > 0;
  }
}
