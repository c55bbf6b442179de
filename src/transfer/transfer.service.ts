import { AccessPolicy } from '../access/access-policy';
import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { activeActor, type Actor } from '../common/actor';
import { DomainError, UnauthorizedError, ValidationFailedError } from '../common/errors';
import type { RequestOrigin } from '../common/request';
import type { CreateShortDto } from '../shorts/dto/create-short.dto';
import type {
  ExportedShortDto,
  ImportResultDto,
  ImportShortsDto,
  SkippedRowDto,
} from './dto/transfer.dto';
import { csvCell } from '../shared/csv-cell';
import { previewToColumn, type SocialPreview } from '../shared/social-preview';
import { type QrStyle, qrStyleToColumn } from '../shared/qr-style';
import type { ErrorKey } from '../shared/error-keys';
import {
  EXPORT_COLUMNS,
  mapImportColumns,
  SHORT_FIELDS,
  type ShortFieldName,
  URL_COLUMN_NAMES,
} from '../shared/short-fields';
import { checkRows, columnsOf, parseCsv, rowToInput } from './import-rows';
import type { ShortDto } from '../shorts/dto/short.dto';
import { ShortCreateService } from '../shorts/short-create.service';
import { ShortViewService, type Space } from '../shorts/short-view.service';

/** Shorts read per query while exporting: memory stays the same for 100 or 100,000 shorts. */
const EXPORT_PAGE = 500;
/**
 * Import rows checked and written at a time (one INSERT each), with a turn of the event loop
 * between chunks: on SQLite every query runs synchronously, so without the turns a 5,000-row
 * import would hold every other request until it is done. 25 rows hold the loop ~15 ms (100 held it
 * 60–90 ms: the INSERT's cost grows faster than its rows) and the import takes as long.
 */
const IMPORT_CHUNK = 25;

/** Why a row was not created: the create rules' message (field errors as `field: message`). */
function reasonOf(err: DomainError): string {
  if (err instanceof ValidationFailedError) {
    return Object.entries(err.fieldErrors)
      .map(([field, message]) => `${field}: ${message}`)
      .join('; ');
  }
  return err.message;
}

/**
 * The export's columns, each with its field's type where it needs one: rules (written as JSON
 * text, none as null), a team (written as its id), tags (comma-separated), a QR style (compact).
 */
const EXPORT_CELLS = EXPORT_COLUMNS.map(
  (c) =>
    [c, Object.hasOwn(SHORT_FIELDS, c) ? SHORT_FIELDS[c as ShortFieldName].type : null] as const,
);

/** The export's row of a short: its owner's view (ShortDto), cut to EXPORT_COLUMNS. */
function exportedOf(dto: ShortDto): ExportedShortDto {
  const view = dto as unknown as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const [column, type] of EXPORT_CELLS) {
    const value = view[column] ?? null;
    // The rules as JSON text (CONTRACT: imports and exports carry them so), none as null.
    if (type === 'rules')
      row[column] = (value as unknown[] | null)?.length ? JSON.stringify(value) : null;
    // A team as its id (an import reads it back where the importer may write to that team).
    else if (type === 'team') row[column] = (value as { id: string } | null)?.id ?? null;
    // The tags comma-separated (a tag holds no comma), none as null.
    else if (type === 'tags') row[column] = (value as string[] | null)?.join(',') || null;
    // The preview as JSON text of its non-empty parts, none as null.
    else if (type === 'preview') row[column] = previewToColumn(previewOfView(value));
    // The QR style as its column holds it (`fg,bg,ec,margin`), none as null.
    else if (type === 'qr-style') row[column] = value && qrStyleToColumn(value as QrStyle);
    else row[column] = value;
  }
  return row as unknown as ExportedShortDto;
}

/** The stored form of a preview as a short's answer shows it (every part, null when empty). */
function previewOfView(view: unknown): SocialPreview | null {
  if (!view || typeof view !== 'object') return null;
  const preview: SocialPreview = {};
  for (const [part, v] of Object.entries(view as Record<string, unknown>)) {
    if (typeof v === 'string' && v !== '') preview[part as keyof SocialPreview] = v;
  }
  return preview;
}

/** The stable key of why a row was not created (the first field's, for field errors). */
function errorKeyOf(err: DomainError): ErrorKey {
  if (!(err instanceof ValidationFailedError)) return err.errorKey;
  return err.fieldErrorKeys[Object.keys(err.fieldErrors)[0]] ?? 'row_invalid';
}

/** Export and import of a user's own shorts. */
@Injectable()
export class TransferService {
  constructor(
    private readonly shorts: ShortCreateService,
    private readonly view: ShortViewService,
    private readonly policy: AccessPolicy,
  ) {}

  /** A space's shorts, read a page at a time while the answer is written. */
  private async *pages(space: Space): AsyncGenerator<ExportedShortDto[]> {
    let after: string | null = null;
    for (;;) {
      const { page, visits } = await this.view.ownedAfter(space, after, EXPORT_PAGE);
      if (page.length === 0) return;
      yield page.map((s) =>
        exportedOf(this.view.toDto(s, true, { visits: visits.get(s.id) ?? 0 })),
      );
      if (page.length < EXPORT_PAGE) return;
      after = page[page.length - 1].id;
    }
  }

  /** The space an export reads: the caller's own, or a team he is a member of (else 403). */
  async spaceOf(actor: Actor, team: string | undefined): Promise<Space> {
    const id = await this.policy.readableTeam(actor, team);
    return id === null ? { ownerId: actor.id } : { teamId: id };
  }

  exportCsv(space: Space): Readable {
    const pages = this.pages(space);
    return Readable.from(
      (async function* () {
        yield `${EXPORT_COLUMNS.join(',')}\r\n`;
        for await (const page of pages) {
          yield page
            .map((s) => EXPORT_COLUMNS.map((c) => csvCell(s[c])).join(',') + '\r\n')
            .join('');
        }
      })(),
    );
  }

  exportJson(space: Space): Readable {
    const pages = this.pages(space);
    return Readable.from(
      (async function* () {
        let first = true;
        yield '[';
        for await (const page of pages) {
          for (const s of page) {
            yield (first ? '' : ',') + JSON.stringify(s);
            first = false;
          }
        }
        yield ']';
      })(),
    );
  }

  /**
   * Creates the caller's shorts from an export (ours, Shlink, YOURLS, Kutt, Bitly): every row by the
   * create rules, each either created or reported with its reason and key. Too many rows, columns
   * or characters in a record, no url column or both/neither of `csv` and `rows` refuse the whole
   * import before anything is written. The rows are checked and written a chunk at a time, with a
   * turn of the event loop between chunks (and between the slices a CSV is parsed in).
   */
  async import(
    dto: ImportShortsDto,
    caller: Actor | null,
    origin?: RequestOrigin,
  ): Promise<ImportResultDto> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    if ((dto.csv === undefined) === (dto.rows === undefined)) {
      throw new ValidationFailedError({ csv: 'send either csv or rows' });
    }
    const field = dto.csv !== undefined ? 'csv' : 'rows';
    let rows: ReadonlyArray<Readonly<Record<string, unknown>>>;
    let headers: string[];
    if (dto.csv !== undefined) {
      rows = await parseCsv(dto.csv);
      headers = columnsOf(rows);
    } else {
      rows = dto.rows ?? [];
      headers = checkRows(rows);
    }
    const mapping = mapImportColumns(headers);
    if (![...mapping.values()].includes('url')) {
      const names = URL_COLUMN_NAMES.join(', ').replace(/, ([^,]+)$/, ' or $1');
      throw new ValidationFailedError({ [field]: `needs a url column (${names})` });
    }
    // A team for every row: one the caller may write to, else the import is refused whole.
    const team =
      dto.team === undefined ? undefined : await this.policy.writableTeam(actor, dto.team);
    // Every row counts against the user's create limit; an import that would pass it is refused whole.
    await this.shorts.takeCreate(actor, origin, rows.length);
    const codeColumn = [...mapping].find(([, f]) => f === 'code')?.[0];
    let created = 0;
    const skipped: SkippedRowDto[] = [];
    const now = Date.now();
    for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
      if (start > 0) await nextTurn();
      const inputs: Array<{ row: number; input: CreateShortDto }> = [];
      for (let i = start; i < Math.min(start + IMPORT_CHUNK, rows.length); i++) {
        const parsed = rowToInput(rows[i], mapping, now);
        if ('reason' in parsed) {
          const code = codeColumn === undefined ? null : rows[i][codeColumn];
          skipped.push({
            row: i + 1,
            code: typeof code === 'string' ? code : null,
            reason: parsed.reason,
            errorKey: parsed.errorKey,
          });
        } else {
          const input = { ...parsed.input, url: parsed.input.url as string };
          if (team !== undefined) input.team = team;
          inputs.push({ row: i + 1, input });
        }
      }
      const results = await this.shorts.createMany(
        inputs.map((r) => r.input),
        actor,
        origin,
      );
      for (const [k, result] of results.entries()) {
        if ('code' in result) {
          created++;
          continue;
        }
        const { row, input } = inputs[k];
        skipped.push({
          row,
          code: input.code ?? null,
          reason: reasonOf(result.error),
          errorKey: errorKeyOf(result.error),
        });
      }
    }
    skipped.sort((a, b) => a.row - b.row);
    return { created, skipped };
  }
}
