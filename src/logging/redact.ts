/**
 * Scrubbing of secrets from log lines and error reports. Two layers:
 * - known secret values (APP_SECRET, the database password, OAuth client secrets, tokens, DSN keys)
 *   are replaced wherever they appear;
 * - patterns that look like credentials (URL userinfo, `password=` parameters, bearer tokens,
 *   cookies) are masked even when their value is not known in advance.
 */
import { sensitiveValues } from '../config/variables';
import { MASK } from '../config/mask';

export { MASK };

const PATTERNS: Array<[RegExp, string]> = [
  // scheme://user:pass@host → scheme://user:******@host
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"']*):[^\s@/"']*@/gi, `$1:${MASK}@`],
  // password=…, secret=…, token=… in query strings or key=value text
  [
    /\b((?:[a-z_]*password|passwd|pwd|secret|token|api[_-]?key|apikey|access_token|client_secret)=)[^&\s"',;]*/gi,
    `$1${MASK}`,
  ],
  // "password":"…" style JSON fragments inside messages
  [
    /("(?:[a-zA-Z_]*password|secret|token|apiKey|api_key|authorization|cookie)"\s*:\s*")(?:[^"\\]|\\.)*"/gi,
    `$1${MASK}"`,
  ],
  // Authorization headers / bearer tokens
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${MASK}`],
  // cookies
  [/\b((?:set-)?cookie:\s*)[^\r\n]*/gi, `$1${MASK}`],
];

/** Object keys whose values never reach a log line or an error report. */
export const SECRET_KEY =
  /pass(word)?|secret|token|authorization|cookie|api[-_]?key|apikey|session|dsn|credential/i;

export class Redactor {
  private secrets: string[] = [];

  /** Registers literal secret values (ignores short or empty ones that would mask ordinary text). */
  addSecrets(values: Array<string | undefined | null>): void {
    for (const v of values) {
      if (!v || v.length < 6 || this.secrets.includes(v)) continue;
      this.secrets.push(v);
      const enc = encodeURIComponent(v);
      if (enc !== v && !this.secrets.includes(enc)) this.secrets.push(enc);
    }
    // Longest first, so a secret that contains another is masked whole.
    this.secrets.sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let out = text;
    for (const s of this.secrets) {
      if (out.includes(s)) out = out.split(s).join(MASK);
    }
    for (const [re, rep] of PATTERNS) out = out.replace(re, rep);
    return out;
  }

  /** Deep copy of a JSON-like value with secret keys masked and strings scrubbed. */
  scrubValue(value: unknown, depth = 0): unknown {
    if (depth > 8) return '[…]';
    if (typeof value === 'string') return this.scrub(value);
    if (Array.isArray(value)) return value.map((v) => this.scrubValue(v, depth + 1));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] =
          SECRET_KEY.test(k) && v !== null && v !== undefined && typeof v !== 'object'
            ? MASK
            : this.scrubValue(v, depth + 1);
      }
      return out;
    }
    return value;
  }
}

/**
 * The secret values of an environment, for Redactor.addSecrets: those of the variables the table
 * (src/config/variables.ts) marks sensitive, and the credentials inside them.
 */
export function secretValuesOf(env: Readonly<Record<string, string | undefined>>): string[] {
  return sensitiveValues(env);
}
