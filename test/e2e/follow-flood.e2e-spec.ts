import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LISTEN_BACKLOG } from '../../src/app.server';
import { useTestApp } from '../support/app';
import { createShort } from '../support/shorts';

const FLOOD = 2_000;
const CLIENT = join(__dirname, '../support/flood-client.mjs');

/**
 * The kernel's count of connections dropped because a listening socket's queue was full
 * (TcpExt ListenOverflows, the whole machine's), or undefined off Linux.
 */
function listenOverflows(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/net/netstat', 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n').filter((l) => l.startsWith('TcpExt:'));
  const names = lines[0].split(' ');
  const values = lines[1].split(' ');
  return Number(values[names.indexOf('ListenOverflows')]);
}

/**
 * 2,000 follows at once, each on its own connection, from a client in its own process: every one
 * is answered (302, or 503 if the app refused it), none is reset. With Node's default listen
 * backlog (511) the kernel's queue of connections waiting to be accepted overflowed: handshakes
 * were dropped (retransmitted a second later, or reset when they stayed unanswered), counted in
 * the kernel's ListenOverflows. The app listens with LISTEN_BACKLOG (capped by the kernel's
 * net.core.somaxconn, which must hold the flood: 4096 on current kernels).
 */
describe('a flood of follows', () => {
  const t = useTestApp();

  it(`${FLOOD} concurrent follows: every one answered (302 or 503), none reset, no handshake dropped`, async () => {
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(
      Math.min(LISTEN_BACKLOG, somaxconn),
      'net.core.somaxconn holds the flood',
    ).toBeGreaterThanOrEqual(FLOOD);
    const { code } = await createShort(t);
    const before = listenOverflows();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLIENT, `${t.url}/s/${code}`, String(FLOOD)],
      { timeout: 45_000 },
    );
    const after = listenOverflows();
    const { tally } = JSON.parse(stdout) as { tally: Record<string, number>; ms: number };
    const answered = (tally['302'] ?? 0) + (tally['503'] ?? 0);
    expect(answered, JSON.stringify(tally)).toBe(FLOOD);
    // Machine-wide: another process's overflowing queue would count too (none on a test run).
    expect((after ?? 0) - (before ?? 0), 'connections dropped by a full listen queue').toBe(0);
  });
});
