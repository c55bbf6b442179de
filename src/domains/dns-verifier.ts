import { Resolver } from 'node:dns/promises';

/** The name of a domain's verification record and the value it must hold. */
export const verificationRecord = (host: string) => `_url-shorter.${host}`;
export const verificationValue = (token: string) => `url-shorter-verify=${token}`;

/** Why a verification failed (stable keys; the web client words them). */
export type VerifyFailure = 'dns_no_record' | 'dns_token_mismatch' | 'dns_timeout' | 'dns_failed';

export interface DnsVerifierOptions {
  /** DNS servers (`ip` or `ip:port`); empty: the system's. */
  servers: readonly string[];
  timeoutMs: number;
}

/**
 * Looks up a domain's TXT verification record with Node's `dns` module (c-ares), through the
 * configured servers and within the timeout; one try, so a silent resolver answers `dns_timeout`
 * after DNS_TIMEOUT_MS, never later.
 */
export class DnsVerifier {
  constructor(private readonly options: DnsVerifierOptions) {}

  private resolver(): Resolver {
    const r = new Resolver({ timeout: this.options.timeoutMs, tries: 1 });
    if (this.options.servers.length) r.setServers([...this.options.servers]);
    return r;
  }

  /** `ok`, or why not. */
  async verify(
    host: string,
    token: string,
  ): Promise<{ ok: true } | { ok: false; reason: VerifyFailure }> {
    const resolver = this.resolver();
    let records: string[][];
    try {
      records = await withDeadline(
        resolver.resolveTxt(verificationRecord(host)),
        this.options.timeoutMs + 500,
        () => resolver.cancel(),
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return { ok: false, reason: 'dns_no_record' };
      if (code === 'ETIMEOUT' || code === 'ECANCELLED' || code === 'DEADLINE') {
        return { ok: false, reason: 'dns_timeout' };
      }
      return { ok: false, reason: 'dns_failed' };
    }
    const expected = verificationValue(token);
    // A TXT record may come in several strings of at most 255 characters: joined they are one value.
    return records.some((parts) => parts.join('') === expected)
      ? { ok: true }
      : { ok: false, reason: 'dns_token_mismatch' };
  }
}

/** The promise, or a DEADLINE error after `ms` (c-ares' own timeout is per try and server). */
function withDeadline<T>(p: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(Object.assign(new Error('DNS deadline passed'), { code: 'DEADLINE' }));
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
