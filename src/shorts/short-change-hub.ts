import { Injectable } from '@nestjs/common';
import type { ShortChange, ShortChangeSink } from './short-events';
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
  ) {}

  use(sink: ShortChangeSink): void {
    this.sink = sink;
  }

  async report(
    type: 'short.created' | 'short.updated' | 'short.deleted',
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
