import 'express-session';
import type { Actor } from '../common/actor';

/** What this app keeps in a session. */
declare module 'express-session' {
  interface SessionData {
    /** Set at login (after the session id was regenerated). */
    auth?: { userId: string; loginAt: number };
    /** Same-origin path remembered at login start, used after the callback. */
    loginRedirect?: string;
  }
}

/** passport's typings declare `req.user` as Express.User; here it is always the Actor. */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends Actor {}
  }
}
