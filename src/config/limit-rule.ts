/**
 * Rate-limit rules as the LIMIT_* variables write them: a comma list of `N/unit` (units `s`, `min`,
 * `h`, `d`), e.g. `5/min,50/d`, or `off`. Pure (the configuration parses with it).
 */
export interface LimitRule {
  /** Requests allowed per window. */
  count: number;
  /** The window in ms. */
  windowMs: number;
  /** As written, e.g. `5/min` (metrics, docs). */
  text: string;
}

const UNITS: Record<string, number> = {
  s: 1_000,
  sec: 1_000,
  min: 60_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** The rules of a LIMIT_* value, or an error message (the value itself is not secret). */
export function parseLimitRules(raw: string): LimitRule[] | { error: string } {
  const value = raw.trim().toLowerCase();
  if (value === 'off' || value === 'false' || value === 'none') return [];
  const rules: LimitRule[] = [];
  for (const part of value.split(',').map((p) => p.trim())) {
    const m = /^(\d{1,9})\s*\/\s*([a-z]+)$/.exec(part);
    const unit = m ? UNITS[m[2]] : undefined;
    if (!m || unit === undefined || Number(m[1]) < 1) {
      return { error: `"${part}" is not N/s, N/min, N/h or N/d with N ≥ 1` };
    }
    rules.push({ count: Number(m[1]), windowMs: unit, text: `${m[1]}/${m[2]}` });
  }
  return rules;
}
