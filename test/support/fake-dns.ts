import { createSocket, type Socket } from 'node:dgram';

/** What the fake server answers for a name (lower case, without the trailing dot). */
export type DnsAnswer =
  /** TXT records, each one or more strings. */
  | { txt: string[][] }
  | { nxdomain: true }
  /** Never answers (a silent resolver). */
  | { silent: true };

/**
 * A DNS server on a free UDP port of 127.0.0.1 that answers TXT queries from a table the test
 * sets: so the app's real resolver (Node's `dns`, c-ares) is driven against known answers, as the
 * login tests drive passport against fake providers. A name not in the table answers NOERROR with
 * no records (NODATA). Only what verification needs: one question per query, TXT answers.
 */
export class FakeDns {
  private socket: Socket | null = null;
  readonly answers = new Map<string, DnsAnswer>();
  /** Names asked, in order (lower case). */
  readonly asked: string[] = [];
  port = 0;

  get server(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const socket = createSocket('udp4');
    this.socket = socket;
    socket.on('message', (msg, rinfo) => {
      const reply = this.answer(msg);
      if (reply) socket.send(reply, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.port = socket.address().port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.socket ? this.socket.close(() => resolve()) : resolve(),
    );
    this.socket = null;
  }

  private answer(query: Buffer): Buffer | null {
    if (query.length < 12) return null;
    // The question: labels up to a zero byte, then QTYPE and QCLASS.
    const labels: string[] = [];
    let i = 12;
    while (i < query.length && query[i] !== 0) {
      const len = query[i];
      labels.push(query.subarray(i + 1, i + 1 + len).toString('latin1'));
      i += len + 1;
    }
    const questionEnd = i + 5;
    const qtype = query.readUInt16BE(i + 1);
    const name = labels.join('.').toLowerCase();
    this.asked.push(name);
    const found = this.answers.get(name);
    if (found && 'silent' in found) return null;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    const rcode = found && 'nxdomain' in found ? 3 : 0;
    header.writeUInt16BE(0x8180 | rcode, 2); // response, recursion desired + available
    header.writeUInt16BE(1, 4); // questions
    const records = found && 'txt' in found && qtype === 16 ? found.txt : [];
    header.writeUInt16BE(records.length, 6);
    const parts: Buffer[] = [header, query.subarray(12, questionEnd)];
    for (const strings of records) {
      const rdata = Buffer.concat(
        strings.map((s) => {
          const b = Buffer.from(s, 'utf8');
          return Buffer.concat([Buffer.from([b.length]), b]);
        }),
      );
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the question's name
      rr.writeUInt16BE(16, 2); // TXT
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(60, 6); // TTL
      rr.writeUInt16BE(rdata.length, 10);
      parts.push(rr, rdata);
    }
    return Buffer.concat(parts);
  }
}
