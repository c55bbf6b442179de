// The floor of a cache-miss follow (issue 45): a bare node:http server that does the work a follow
// of a short not in any cache cannot avoid, and nothing else - one indexed point read of the short
// by code with the app's own driver on the app's own database, answered with the same 302. No
// framework, no cache, no statistics, no rules: the app's follow of a random code is measured
// against it in the same run (bench/run.mjs, the `vs floor` column).
//
// GET /s/{code} reads `SELECT url FROM shorts WHERE domain = ? AND code = ?` with domain '' (this
// service's own host): the app's follow read (src/shorts/short-follow.repository.ts) on the same
// unique index (domain, code). Found: 302 to the url (Cache-Control: no-store, Referrer-Policy:
// no-referrer, as the app and bench/bare-server.mjs answer). Not found or not a follow path: 404.
//
// Environment:
//   FLOOR_ENGINE   sqlite | mariadb | postgres
//   FLOOR_DB_FILE  sqlite: the app's SQLite file (opened as the app opens it: WAL, busy timeout,
//                  its page cache of 2 MiB)
//   FLOOR_DB_URL   mariadb: mysql://user:pass@host:port/database (mysql2);
//                  postgres: postgres://user:pass@host:port/database (pg)
//   FLOOR_POOL     connections of the mysql2 / pg pool (20: the app's, src/database/data-source.ts)
//   PORT           the port on 127.0.0.1 (0: any)
//
// Each engine's statement is prepared once: better-sqlite3's statement (pluck: the url alone),
// mysql2's `execute` (a server-side prepared statement per connection), pg's named statement. Each
// request runs one statement on its own (the app batches the concurrent misses of MariaDB and
// PostgreSQL into one SELECT … IN: the floor is the plain point read, not the app's design).
import { createServer } from 'node:http';

const ENGINE = process.env.FLOOR_ENGINE ?? 'sqlite';
const POOL = Number(process.env.FLOOR_POOL ?? 20);
/** The domain of the shorts on this service's own host. */
const OWN_HOST = '';

/** lookup(code, done): done(err, url | undefined), for the engine. */
async function openLookup() {
  if (ENGINE === 'sqlite') {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(process.env.FLOOR_DB_FILE, { fileMustExist: true, timeout: 5000 });
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('cache_size = -2048'); // the app's SQLITE_CACHE_KIB (src/database/sqlite-options.ts)
    const statement = db.prepare('SELECT url FROM shorts WHERE domain = ? AND code = ?').pluck();
    return (code, done) => {
      let url;
      try {
        url = statement.get(OWN_HOST, code);
      } catch (err) {
        return done(err);
      }
      done(null, url);
    };
  }
  const u = new URL(process.env.FLOOR_DB_URL);
  if (ENGINE === 'mariadb') {
    const mysql = (await import('mysql2')).default;
    const pool = mysql.createPool({
      host: u.hostname,
      port: Number(u.port || 3306),
      user: decodeURIComponent(u.username || 'root'),
      password: decodeURIComponent(u.password),
      database: decodeURIComponent(u.pathname.slice(1)),
      charset: 'utf8mb4_unicode_ci', // the app's
      connectionLimit: POOL,
    });
    const sql = 'SELECT url FROM shorts WHERE domain = ? AND code = ?';
    return (code, done) =>
      pool.execute(sql, [OWN_HOST, code], (err, rows) => done(err, rows?.[0]?.url));
  }
  if (ENGINE === 'postgres') {
    const { Pool } = (await import('pg')).default;
    const pool = new Pool({ connectionString: u.toString(), max: POOL });
    const text = 'SELECT url FROM shorts WHERE domain = $1 AND code = $2';
    return (code, done) =>
      pool.query({ name: 'floor-follow', text, values: [OWN_HOST, code] }, (err, res) =>
        done(err, res?.rows[0]?.url),
      );
  }
  throw new Error(`FLOOR_ENGINE must be sqlite, mariadb or postgres, not ${ENGINE}`);
}

const lookup = await openLookup();

const server = createServer((req, res) => {
  const m = req.method === 'GET' ? /^\/s\/([^/?]+)(?:\?|$)/.exec(req.url ?? '') : null;
  let code;
  try {
    code = m ? decodeURIComponent(m[1]) : undefined;
  } catch {
    code = undefined; // a malformed escape
  }
  if (code === undefined) {
    res.statusCode = 404;
    return res.end();
  }
  lookup(code, (err, url) => {
    if (err) {
      res.statusCode = 503;
      res.end(String(err.message ?? err));
    } else if (url === undefined) {
      res.statusCode = 404;
      res.end();
    } else {
      res.statusCode = 302;
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('Location', url);
      res.end();
    }
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGUSR2', () => server.close(() => process.exit(0)));
