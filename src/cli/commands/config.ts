import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppConfig } from '../../config/config';
import { MASK } from '../../config/mask';
import { type ParseContext, VARIABLE_NAMES, variable } from '../../config/variables';
import { type CliRuntime, databaseLabel } from '../runtime';

/** Where a variable's effective value comes from. */
type Source = 'env' | 'default' | 'file';

interface Effective {
  value: string | null;
  source: Source;
}

const QUIET: ParseContext = { name: '', problem: () => undefined, warn: () => undefined };

/** A default as the app applies it: the parsed value when it is a plain one, else the parser's. */
function defaultOf(name: (typeof VARIABLE_NAMES)[number], config: AppConfig): string | null {
  if (name === 'BASE_URL') return config.baseUrl;
  const parse = variable(name).parse;
  const value = parse(undefined, { ...QUIET, name });
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.length ? value.join(',') : null;
  }
  return parse.fallback === undefined ? null : String(parse.fallback);
}

/**
 * Every variable of the table (src/config/variables.ts) with the value the app uses: as set (a
 * secret only as the mask, a URL with credentials with its password masked: /management/env's
 * view), else its default; APP_SECRET unset is the one stored in the data folder, when there is one.
 */
export function effectiveConfiguration(config: AppConfig): Record<string, Effective> {
  const out: Record<string, Effective> = {};
  for (const name of VARIABLE_NAMES) {
    if (Object.hasOwn(config.envView, name)) {
      out[name] = { value: config.envView[name], source: 'env' };
    } else if (name === 'APP_SECRET') {
      const stored = existsSync(resolve(config.dataDir, 'app-secret'));
      out[name] = stored ? { value: MASK, source: 'file' } : { value: null, source: 'default' };
    } else {
      out[name] = { value: defaultOf(name, config), source: 'default' };
    }
  }
  return out;
}

/** `config`: the effective configuration, secrets masked; a bad value fails with its line. */
export function configCommand(program: Command, run: CliRuntime): void {
  program
    .command('config')
    .description('print the effective configuration (secrets masked); exit 1 on a bad value')
    .action(() => {
      const config = run.config();
      const variables = effectiveConfiguration(config);
      const database = databaseLabel(config);
      const width = Math.max(...Object.keys(variables).map((n) => n.length));
      run.print({ database, variables, warnings: config.warnings }, [
        `# database: ${database}`,
        ...Object.entries(variables).map(
          ([name, { value, source }]) =>
            `${name.padEnd(width)}  ${value ?? '(unset)'}${source === 'env' ? '' : `  (${source === 'file' ? 'stored in the data folder' : 'default'})`}`,
        ),
      ]);
      for (const warning of config.warnings) run.note(warning);
    });
}
