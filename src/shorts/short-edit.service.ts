import { Injectable, Optional } from '@nestjs/common';
import { activeActor, type Actor } from '../common/actor';
import { teamForbidden } from '../access/access-policy';
import { shortNotFound } from '../common/errors';
import type { RequestOrigin } from '../common/request';
import { validateTopLevel } from '../common/validation';
import { onUniqueViolation } from '../database/errors';
import { DomainRegistry } from '../domains/domain-registry';
import { CacheBus } from '../redis/cache-bus';
import { UpdateShortDto } from './dto/update-short.dto';
import type { ShortDto } from './dto/short.dto';
import { followKey, SHORT_CHANGED_CHANNEL, SHORTS_DELETED_CHANNEL } from './short-events';
import { UNCHECKED } from './short-health';
import { ShortAccessService } from './short-access.service';
import { HeldChanges, ShortChangeHub } from './short-change-hub';
import { codeExists, columnsOf, domainGone, ShortCreateService } from './short-create.service';
import { ShortViewService } from './short-view.service';
import type { ShortEntity } from './short.entity';
import { splitTags } from '../shared/tags';
import { type ShortChanges, ShortRepository } from './short.repository';

/**
 * Changes of existing shorts: the owner's edit and delete, an admin's edit, a user's shorts
 * deleted with the user, and the danger flag the report rules set. Every change drops the short
 * from the follow cache of every instance; a delete tells the statistics too.
 */
@Injectable()
export class ShortEditService {
  constructor(
    private readonly shorts: ShortRepository,
    private readonly access: ShortAccessService,
    private readonly create: ShortCreateService,
    private readonly view: ShortViewService,
    private readonly bus: CacheBus,
    private readonly domains: DomainRegistry,
    @Optional() private readonly changes?: ShortChangeHub,
  ) {}

  /** Drops a short from the follow cache of every instance (after any change to it). */
  private changed(s: Pick<ShortEntity, 'code' | 'domain'>): void {
    this.bus.publish(SHORT_CHANGED_CHANNEL, followKey(s.domain, s.code));
  }

  /** Tells every instance that these shorts are gone (their buffered statistics are dropped). */
  private deleted(ids: readonly string[]): void {
    if (ids.length) this.bus.publish(SHORTS_DELETED_CHANNEL, ids.join(','));
  }

  // ---------------------------------------------------------------- edit

  /**
   * Changes a short (owner or admin; anonymous shorts admins only) by the create rules. A new code
   * frees the old one; `null` clears expiry, limit and password. Both codes leave the follow cache
   * of every instance before the answer. A flagged short stays flagged.
   */
  async update(
    id: string,
    dto: UpdateShortDto,
    caller: Actor | null,
    origin?: RequestOrigin,
  ): Promise<ShortDto> {
    const s = await this.access.findOwned(id, caller);
    const actor = activeActor(caller);
    const checked = this.create.checkFields(
      dto,
      'edit',
      actor,
      origin,
      await this.create.teamsFor(actor, [dto]),
    );
    const changes = await columnsOf(checked);
    if (changes.teamId === null && s.teamId !== null) {
      // Out of a team: into the mover's own space (never through a team's key).
      if (!actor || actor.key?.teamId) throw teamForbidden();
      changes.ownerId = actor.id;
    }
    // A new target has not been checked: its health starts over (the next sweep checks it).
    if (changes.url !== undefined && changes.url !== s.url) Object.assign(changes, UNCHECKED);
    // The webhooks' event (to the space the short is in after the edit) is held before the write.
    const after = {
      id: s.id,
      code: changes.code ?? s.code,
      domain: changes.domain ?? s.domain,
      ownerId: changes.ownerId !== undefined ? changes.ownerId : s.ownerId,
      teamId: changes.teamId !== undefined ? changes.teamId : s.teamId,
    };
    const held = (await this.changes?.hold('short.updated', [after])) ?? HeldChanges.none;
    // New tags, or a change of its team or owner (its space): the short and its tag rows in one
    // transaction.
    const tagged =
      changes.tags !== undefined || changes.teamId !== undefined || changes.ownerId !== undefined;
    try {
      if (tagged) {
        const onDomain = changes.domain && changes.domain !== s.domain;
        const d = onDomain ? this.domains.get(changes.domain as string) : undefined;
        if (onDomain && !d) throw domainGone();
        const tags = changes.tags !== undefined ? splitTags(changes.tags) : undefined;
        const outcome = await onUniqueViolation(
          this.shorts.updateWithTags(s.id, changes, tags, d),
          codeExists,
        );
        // A short gone meanwhile is not found below.
        if (outcome === 'domain_gone') throw domainGone();
      } else if (changes.domain && changes.domain !== s.domain) {
        // Onto an own domain: only while it is there (exclusive with its delete).
        const d = this.domains.get(changes.domain);
        const moved =
          d && (await onUniqueViolation(this.shorts.updateOnDomain(s.id, changes, d), codeExists));
        if (!moved) throw domainGone();
      } else await onUniqueViolation(this.shorts.update(s.id, changes), codeExists);
    } catch (err) {
      await held.drop();
      throw err;
    }
    this.changed(s);
    this.changed({ code: after.code, domain: after.domain });
    const updated = await this.shorts.findByIdWithOwner(s.id);
    if (!updated) {
      await held.drop();
      throw shortNotFound();
    }
    const answer = this.view.toDto(updated, true, undefined, true);
    await held.release([updated], () => answer);
    return answer;
  }

  // ---------------------------------------------------------------- delete

  /** Deletes a short: its owner or an admin; anonymous shorts only admins. */
  async delete(id: string, caller: Actor | null): Promise<void> {
    const s = await this.access.findToDelete(id, caller);
    const held = (await this.changes?.hold('short.deleted', [s])) ?? HeldChanges.none;
    try {
      await this.shorts.delete(s);
    } catch (err) {
      await held.drop();
      throw err;
    }
    this.changed(s);
    this.deleted([s.id]);
    await held.release([s], () => ({ id: s.id, code: s.code, domain: s.domain || null }));
  }

  /** Deletes every short of a user (before the user is removed). */
  async deleteAllOwnedBy(ownerId: string): Promise<void> {
    const owned = await this.shorts.identitiesOwnedBy(ownerId);
    await this.shorts.deleteOwnedBy(ownerId);
    for (const s of owned) this.changed(s);
    this.deleted(owned.map((s) => s.id));
  }

  // ---------------------------------------------------------------- changes by other modules

  /**
   * An admin's edit of a short's fields in the admin area (any short): the owner's edit exactly
   * (the boundary validation of PATCH, then the create rules), so that it is refused with the
   * field errors and keys an owner would get.
   */
  async adminEdit(
    id: string,
    fields: Record<string, unknown>,
    admin: Actor,
    origin?: RequestOrigin,
  ): Promise<void> {
    await this.update(id, await validateTopLevel(UpdateShortDto, fields), admin, origin);
  }

  /** Sets or clears the danger flag (the report rules decide when; see ReportService). */
  async setDanger(id: string, dangerous: boolean, reason: string | null): Promise<void> {
    await this.change(id, { dangerous, dangerReason: dangerous ? (reason ?? 'OTHER') : null });
  }

  /** Changes the reason of a short that is flagged; an unflagged short keeps no reason. */
  async setDangerReason(id: string, reason: string | null): Promise<void> {
    const s = await this.shorts.findIdentity(id);
    if (!s?.dangerous) return;
    await this.shorts.update(id, { dangerReason: reason });
    this.changed(s);
  }

  /** Flags a short dangerous unless it already is; true when this call flagged it. */
  async flagDangerousOnce(id: string, reason: string): Promise<boolean> {
    const s = await this.shorts.findIdentity(id);
    if (!s || !(await this.shorts.flagDangerousOnce(id, reason))) return false;
    this.changed(s);
    return true;
  }

  private async change(id: string, changes: ShortChanges): Promise<void> {
    const s = await this.shorts.findIdentity(id);
    if (!s) return;
    await this.shorts.update(id, changes);
    this.changed(s);
  }
}
