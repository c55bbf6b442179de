import type { Command } from 'commander';
import { ROLE_ADMIN } from '../../account/user.entity';
import { parseRoles, UserService } from '../../account/user.service';
import type { CliRuntime } from '../runtime';
import { findUser, userLabel } from './users';

/** `admin grant|revoke provider:username`: ROLE_ADMIN of a user who has logged in before. */
export function adminCommand(program: Command, run: CliRuntime): void {
  const admin = program
    .command('admin')
    .description("give or take a user's admin role (ROLE_ADMIN)");
  for (const [action, on] of [
    ['grant', true],
    ['revoke', false],
  ] as const) {
    admin
      .command(`${action} <user>`)
      .description(
        `${on ? 'give' : 'take'} the admin role ${on ? 'to' : 'from'} a user who has logged in before (provider:username, e.g. github:alice, or the user's id)`,
      )
      .action(async (login: string) => {
        await run.withApp(async (app) => {
          const user = await findUser(app, login);
          const users = app.get(UserService);
          const changed = await users.setAdmin(user.id, on);
          const after = await users.findById(user.id);
          const roles = parseRoles(after?.roles ?? user.roles);
          const label = userLabel(user);
          run.print(
            {
              user: { id: user.id, login: label },
              admin: roles.includes(ROLE_ADMIN),
              changed,
              roles,
            },
            changed
              ? `${label} ${on ? 'is an admin now' : 'is no admin any more'} (from the next request on).`
              : `${label} ${on ? 'is an admin already' : 'was no admin'}: nothing changed.`,
          );
          if (!on && users.isConfiguredAdmin(user.provider, user.username)) {
            run.note(
              `${label} is listed in ADMIN_USERS and gets the admin role again at the next login`,
            );
          }
        });
      });
  }
}
