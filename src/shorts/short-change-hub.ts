import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { ShortEntity } from './short.entity';
import type { ShortChange, ShortChangeSink, ShortChangeType } from './short-events';
import { ShortRepository } from './short.repository';
import { ShortViewService } from './short-view.service';

/**
 * The port through which the shorts module reports its changes (ShortChangeSink): nothing is done
 * while no sink is registered. Awaited before a change's answer, so what a sink writes (the
 * webhooks' outbox) is in the database when the caller hears of the change.
 */
@Injectable()
export class ShortChangeHub {
  private sink: ShortChangeSink | null = null;

  constructor(
    private readonly shorts: ShortRepository,
    private readonly view: ShortViewService,
    @InjectRepository(ShortEntity) private readonly repo: Repository<ShortEntity>,
  ) {}

  /** The identity and space of these shorts (the ones that exist), 500 ids per query. */
  async identities(ids: readonly string[]): Promise<ShortChange[]> {
    const out: ShortChange[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.repo.find({
        where: { id: In(ids.slice(i, i + 500)) },
        select: { id: true, code: true, domain: true, ownerId: true, teamId: true },
      });
      out.push(...rows);
    }
    return out;
  }

  use(sink: ShortChangeSink): void {
    this.sink = sink;
  }

  /**
   * A short's link health changed state (src/link-health): reported with its identity, the state
   * before and the health now (as `Short.health` shows it).
   */
  async healthChanged(id: string, previous: string, health: unknown): Promise<void> {
    if (!this.sink) return;
    const [s] = await this.identities([id]);
    if (!s) return;
    const short = { id: s.id, code: s.code, domain: s.domain || null };
    await this.report('short.health_changed', [s], { short, previous, health });
  }

  async report(
    type: ShortChangeType,
    shorts: readonly ShortChange[],
    answered?: unknown,
  ): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    for (const s of shorts) {
      if (s.ownerId === null && s.teamId === null) continue; // anonymous shorts have no webhooks
      await sink.changed(type, s, async () => {
        if (answered !== undefined) return answered;
        const full = await this.shorts.findByIdWithOwner(s.id);
        return full ? this.view.toDto(full, true, undefined, true) : null;
      });
    }
  }
}
