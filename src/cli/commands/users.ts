import type { INestApplicationContext } from '@nestjs/common';
import type { UserEntity } from '../../account/user.entity';
import { UserService } from '../../account/user.service';
import { CliError } from '../io';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `provider:username` as ADMIN_USERS writes it (or a user id), split; a CliError otherwise. */
export function parseLogin(login: string): { provider: string; username: string } | { id: string } {
  const text = login.trim();
  if (UUID.test(text)) return { id: text.toLowerCase() };
  const at = text.indexOf(':');
  if (at <= 0 || at === text.length - 1) {
    throw new CliError(`"${login}" is not provider:username (e.g. github:alice) or a user id`);
  }
  return { provider: text.slice(0, at), username: text.slice(at + 1) };
}

/**
 * The one user who logged in as `login` (see parseLogin): the CLI acts only on users the server
 * knows; none or several is a CliError.
 */
export async function findUser(app: INestApplicationContext, login: string): Promise<UserEntity> {
  const users = app.get(UserService);
  const parsed = parseLogin(login);
  if ('id' in parsed) {
    const user = await users.findById(parsed.id);
    if (!user) throw new CliError(`no user with the id ${parsed.id}`);
    return user;
  }
  const found = await users.findByLogin(parsed.provider, parsed.username);
  if (found.length === 0) {
    throw new CliError(`no user ${login}: a user must have logged in once before`);
  }
  if (found.length > 1) {
    throw new CliError(
      `${found.length} users logged in as ${login} (ids ${found.map((u) => u.id).join(', ')}): name one by its id`,
    );
  }
  return found[0];
}

/** How the output names a user. */
export function userLabel(u: Pick<UserEntity, 'provider' | 'username'>): string {
  return `${u.provider}:${u.username}`;
}
