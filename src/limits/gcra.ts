import type { LimitRule } from '../config/limit-rule';

/**
 * The generic cell rate algorithm (GCRA) over several rules at once: per rule one number, the
 * theoretical arrival time (`tat`, ms). A rule of N per window lets a burst of N through at once
 * and then one every window / N: N per window in the long run, never more than 2 N − 1 in any one
 * window (a burst plus a window's rate). Taking `n` at once
 * (an import's rows) is all or nothing: refused when any rule would be passed, and then nothing is
 * taken. The same arithmetic runs in process (`gcra`) and in Redis (`GCRA_LUA`).
 */
export interface GcraDecision {
  allowed: boolean;
  /** When refused: ms until `n` would be allowed (a request larger than a rule's N: one window). */
  retryAfterMs: number;
  /** When allowed: the new tats to store; else the old ones. */
  tats: number[];
}

export function gcra(
  rules: readonly LimitRule[],
  tats: ReadonlyArray<number | undefined>,
  now: number,
  n: number,
): GcraDecision {
  let wait = 0;
  const next: number[] = [];
  for (const [i, rule] of rules.entries()) {
    const interval = rule.windowMs / rule.count;
    const tat = Math.max(tats[i] ?? now, now);
    const newTat = tat + n * interval;
    let allowAt = newTat - rule.windowMs;
    if (n > rule.count) allowAt = Math.max(allowAt, now + rule.windowMs);
    if (allowAt > now) wait = Math.max(wait, allowAt - now);
    next.push(Math.ceil(newTat));
  }
  if (wait > 0) {
    return { allowed: false, retryAfterMs: Math.ceil(wait), tats: tats.map((t) => t ?? now) };
  }
  return { allowed: true, retryAfterMs: 0, tats: next };
}

/** The same decision as a Redis script: KEYS[1] is a hash of tats, ARGV = n, then count, window per rule. */
export const GCRA_LUA = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local rules = (#ARGV - 1) / 2
local wait = 0
local next = {}
local keep = 0
for i = 1, rules do
  local count = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[2 * i + 1])
  local tat = tonumber(redis.call('HGET', KEYS[1], tostring(i))) or now
  if tat < now then tat = now end
  local newTat = tat + n * (window / count)
  local allowAt = newTat - window
  if n > count and allowAt < now + window then allowAt = now + window end
  if allowAt > now and allowAt - now > wait then wait = allowAt - now end
  next[i] = math.ceil(newTat)
  if next[i] - now > keep then keep = next[i] - now end
end
if wait > 0 then return {0, math.ceil(wait)} end
for i = 1, rules do
  redis.call('HSET', KEYS[1], tostring(i), string.format('%d', next[i]))
end
redis.call('PEXPIRE', KEYS[1], math.ceil(keep) + 1000)
return {1, 0}
`;
