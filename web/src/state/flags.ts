import { proxy, subscribe } from 'valtio';
import { msg } from '../i18n/current';
import { FLAGS, isFlagOn, parseLocalFlags } from '../lib/flag-rule';
import { runtimeConfig } from '../runtime-config';
import { dismissToast, showToast } from './toasts';

export const FLAGS_KEY = 'flags';

/** Feature flags: the server's flags, the local switches, what is on, the experiments dialog. */
export const flags = proxy({
  available: [] as string[],
  server: {} as Record<string, boolean>,
  local: [] as string[],
  enabled: {} as Record<string, boolean>,
  showExperimentDialog: false,
  ready: false,
});

const KNOWN = Object.values(FLAGS) as string[];

function recompute(): void {
  const names = new Set([...KNOWN, ...Object.keys(flags.server)]);
  const enabled: Record<string, boolean> = {};
  for (const n of names) enabled[n] = isFlagOn(n, flags.server, flags.local);
  flags.enabled = enabled;
  flags.available = Object.keys(flags.server).filter((n) => flags.server[n]);
}

export function setServerFlags(server: Record<string, boolean>): void {
  flags.server = server;
  flags.ready = true;
  recompute();
}

export function isEnabled(name: string): boolean {
  return Boolean(flags.enabled[name]);
}

/** Locally switches a flag (the experiments dialog); stored as a list of names. */
export function setLocalFlag(name: string, on: boolean): void {
  if (name === FLAGS.experimentSwitch) return;
  const set = new Set(flags.local);
  if (on) set.add(name);
  else set.delete(name);
  flags.local = [...set];
  localStorage.setItem(FLAGS_KEY, JSON.stringify(flags.local));
  recompute();
}

/** Maintenance: persistent info toast; shutdown: persistent error toast without close button. */
function syncOperatorToasts(): void {
  if (flags.enabled[FLAGS.maintenance]) {
    showToast('info', msg.toasts.maintenance, {
      id: 'maintenance',
      persistent: true,
      closable: true,
    });
  } else dismissToast('maintenance');
  if (flags.enabled[FLAGS.shutdown]) {
    showToast('error', msg.toasts.shutdown, { id: 'shutdown', persistent: true, closable: false });
  } else dismissToast('shutdown');
}

let last = '';
export async function startFlags(): Promise<void> {
  flags.local = parseLocalFlags(localStorage.getItem(FLAGS_KEY));
  recompute();
  subscribe(flags, () => {
    const key = `${flags.enabled[FLAGS.maintenance]}|${flags.enabled[FLAGS.shutdown]}`;
    if (key !== last) {
      last = key;
      syncOperatorToasts();
    }
  });
  if (runtimeConfig.flags.embedded) {
    startEmbeddedFlags();
    return;
  }
  try {
    const { UnleashClient, InMemoryStorageProvider } = await import('unleash-proxy-client');
    const client = new UnleashClient({
      url: new URL(runtimeConfig.flags.url, location.origin).href,
      clientKey: runtimeConfig.flags.clientKey,
      appName: 'url-shorter-web',
      refreshInterval: runtimeConfig.flags.refreshSeconds,
      disableMetrics: true,
      storageProvider: new InMemoryStorageProvider(),
    });
    const update = () =>
      setServerFlags(Object.fromEntries(client.getAllToggles().map((t) => [t.name, t.enabled])));
    client.on('ready', update);
    client.on('update', update);
    client.on('error', (e: unknown) => console.warn('Feature flags unavailable', e));
    await client.start();
  } catch (err) {
    // Flags that cannot start leave the defaults; the failure is only logged.
    console.warn('Feature flags could not start', err);
  }
}

/**
 * The embedded flags (this server's own Unleash-compatible frontend API, GET /api/frontend): read as
 * unleash-proxy-client reads them (the client key as Authorization, the same answer), every
 * refreshSeconds, without loading that client. An external Unleash keeps the client above. Saves the
 * first visit 7.8 KB gzip of script (issue 40).
 */
function startEmbeddedFlags(): void {
  const url = new URL(runtimeConfig.flags.url, location.origin).href;
  const load = async () => {
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json', authorization: runtimeConfig.flags.clientKey },
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { toggles?: { name: string; enabled: boolean }[] };
      setServerFlags(Object.fromEntries((body.toggles ?? []).map((t) => [t.name, t.enabled])));
    } catch (err) {
      // Flags that cannot be read keep what was known; the failure is only logged.
      console.warn('Feature flags unavailable', err);
    }
  };
  void load();
  if (runtimeConfig.flags.refreshSeconds > 0)
    setInterval(() => void load(), runtimeConfig.flags.refreshSeconds * 1000);
}
