import type { Command } from 'commander';
import { DomainService } from '../../domains/domain.service';
import type { DomainDto } from '../../domains/dto/domain.dto';
import { CliError } from '../io';
import type { CliRuntime } from '../runtime';

/** A domain's state in one word: verified (enabled or disabled) or pending. */
function stateOf(d: DomainDto): string {
  if (!d.verified) return 'pending';
  return d.enabled ? 'verified' : 'disabled';
}

/** One line of a domain: host, state (the last check's failure), owner. */
function line(d: DomainDto): string {
  const reason = d.verification.reason ? ` (${d.verification.reason})` : '';
  const owner = d.owner ? d.owner.username : 'shared';
  return `${d.host}  ${stateOf(d)}${reason}  ${owner}`;
}

/** `domains list` and `domains verify HOST`. */
export function domainsCommand(program: Command, run: CliRuntime): void {
  const domains = program.command('domains').description('own domains');
  domains
    .command('list')
    .description('every own domain with its owner and state')
    .action(async () => {
      await run.withApp(async (app) => {
        const list = await app.get(DomainService).listAll();
        run.print(
          list.map((d) => ({ ...d, state: stateOf(d) })),
          list.length ? list.map(line) : 'No own domains.',
        );
      });
    });
  domains
    .command('verify <host>')
    .description(
      "check a domain's DNS TXT record now, as the server's verification does (every pending claim of the host, or its verified domain)",
    )
    .action(async (host: string) => {
      await run.withApp(async (app) => {
        const checked = await app.get(DomainService).verifyHost(host);
        if (checked.length === 0) throw new CliError(`no domain ${host}`);
        run.print(
          checked.map(({ domain, passed }) => ({ ...domain, state: stateOf(domain), passed })),
          checked.map(({ domain, passed }) => `${passed ? 'passed' : 'failed'}: ${line(domain)}`),
        );
        if (!checked.some((c) => c.passed)) {
          const d = checked[0].domain;
          run.fail(
            `${d.host}: the TXT record ${d.verification.record} does not verify it (${d.verification.reason ?? 'failed'})`,
          );
        }
      });
    });
}
