import type { Command } from 'commander';
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { toActor } from '../../account/user.service';
import { validateTopLevel } from '../../common/validation';
import { MAX_IMPORT_BYTES } from '../../shared/limits';
import { ImportShortsDto } from '../../transfer/dto/transfer.dto';
import { TransferService } from '../../transfer/transfer.service';
import { CliError } from '../io';
import type { CliRuntime } from '../runtime';
import { findUser, userLabel } from './users';

type Format = 'csv' | 'json';

function formatOption(value: string | undefined): Format | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (v !== 'csv' && v !== 'json')
    throw new CliError(`--format must be csv or json (got "${value}")`);
  return v;
}

/** A file's format: --format, else its extension (.json: JSON, anything else: CSV). */
function formatOf(file: string | undefined, given: Format | undefined, fallback: Format): Format {
  if (given) return given;
  const ext = file ? extname(file).toLowerCase() : '';
  return ext === '.json' ? 'json' : ext === '.csv' ? 'csv' : fallback;
}

/**
 * The import's body from a file, as the API takes it: a CSV as `csv`, JSON rows (our export's
 * array, or `{ rows }` / `{ csv }` as the API's body) as `rows`. The file may be no larger than the
 * API's body (2 MB).
 */
export function importBody(file: string, format: Format): unknown {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
  if (size > MAX_IMPORT_BYTES) {
    throw new CliError(`${file} is larger than the import's limit of ${MAX_IMPORT_BYTES} bytes`);
  }
  const text = readFileSync(file, 'utf8');
  if (format === 'csv') return { csv: text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new CliError(`${file} is not valid JSON`);
  }
  return Array.isArray(parsed) ? { rows: parsed } : parsed;
}

/** `shorts import FILE --user …` and `shorts export --user … [--out FILE]`. */
export function shortsCommand(program: Command, run: CliRuntime): void {
  const shorts = program.command('shorts').description("import or export a user's shorts");
  shorts
    .command('import <file>')
    .description(
      "create a user's shorts from a file, as the API's import does (our CSV or JSON export, Shlink, YOURLS, Kutt, Bitly; at most 5,000 rows and 2 MB)",
    )
    .requiredOption(
      '--user <user>',
      'the owner: provider:username (e.g. github:alice) or a user id',
    )
    .option('--format <format>', 'csv or json (default: by the file name, else csv)')
    .action(async (file: string, opts: { user: string; format?: string }) => {
      const body = importBody(run.path(file), formatOf(file, formatOption(opts.format), 'csv'));
      const dto = await validateTopLevel(ImportShortsDto, body);
      await run.withApp(async (app) => {
        const user = await findUser(app, opts.user);
        if (!user.activated) throw new CliError(`${userLabel(user)} is deactivated`);
        const result = await app.get(TransferService).import(dto, toActor(user));
        const label = userLabel(user);
        run.print({ user: { id: user.id, login: label }, ...result }, [
          `Imported ${result.created} short(s) for ${label}; skipped ${result.skipped.length}.`,
          ...result.skipped.map(
            (s) => `  row ${s.row}${s.code ? ` (${s.code})` : ''}: ${s.reason} [${s.errorKey}]`,
          ),
        ]);
      });
    });
  shorts
    .command('export')
    .description(
      "a user's shorts as the API's export writes them (CSV or JSON), to standard output or a file; --user is required (the export is per owner)",
    )
    .requiredOption(
      '--user <user>',
      'the owner: provider:username (e.g. github:alice) or a user id',
    )
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--format <format>', 'csv or json (default: by --out, else json with --json, else csv)')
    .action(async (opts: { user: string; out?: string; format?: string }) => {
      const format = formatOf(opts.out, formatOption(opts.format), run.json ? 'json' : 'csv');
      await run.withApp(async (app) => {
        const user = await findUser(app, opts.user);
        const transfer = app.get(TransferService);
        const stream: Readable =
          format === 'csv'
            ? transfer.exportCsv({ ownerId: user.id })
            : transfer.exportJson({ ownerId: user.id });
        if (!opts.out) {
          for await (const chunk of stream) run.io.stdout(String(chunk));
          if (format === 'json') run.io.stdout('\n');
          return;
        }
        const out = run.path(opts.out);
        await pipeline(stream, createWriteStream(out));
        const bytes = statSync(out).size;
        const label = userLabel(user);
        run.print(
          { user: { id: user.id, login: label }, file: opts.out, format, bytes },
          `Exported the shorts of ${label} to ${opts.out} (${format}, ${bytes} bytes).`,
        );
      });
    });
}
