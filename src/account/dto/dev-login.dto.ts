import { QueryText } from '../../common/query';

/** `GET /api/auth/dev` (AUTH_DEV_LOGIN=true only): who to log in as, and where to go then. */
export class DevLoginQueryDto {
  @QueryText({ description: 'Without it, a small form is shown' })
  username?: string;

  @QueryText({ description: 'Same-origin path to go to after login' })
  redirect?: string;
}
