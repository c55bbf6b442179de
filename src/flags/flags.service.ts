import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';

export interface FrontendToggle {
  name: string;
  enabled: boolean;
  variant: { name: string; enabled: boolean };
}

/**
 * The embedded flag store: starts from the configured flags (FLAGS), can be changed at
 * runtime (e.g. by an admin API), answers in the Unleash frontend-API shape.
 */
@Injectable()
export class FlagsService {
  private readonly flags = new Map<string, boolean>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    for (const [name, enabled] of Object.entries(config.flags)) this.flags.set(name, enabled);
  }

  /** All known flags and their values. */
  all(): Record<string, boolean> {
    return Object.fromEntries([...this.flags.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  isEnabled(name: string): boolean {
    return this.flags.get(name) ?? false;
  }

  set(name: string, enabled: boolean): void {
    this.flags.set(name, enabled);
  }

  /** Like Unleash's frontend API: only enabled toggles are listed. */
  frontendToggles(): FrontendToggle[] {
    return Object.entries(this.all())
      .filter(([, enabled]) => enabled)
      .map(([name]) => ({ name, enabled: true, variant: { name: 'disabled', enabled: false } }));
  }
}
