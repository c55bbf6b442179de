import { describe, expect, it } from 'vitest';
import { parse as querystring } from 'node:querystring';
import { BadRequestError, ValidationFailedError } from './errors';
import { OwnShortsQueryDto } from '../shorts/dto/own-shorts-query.dto';
import { QrPngQueryDto } from '../qr/dto/qr-png-query.dto';
import { ExportQueryDto } from '../transfer/dto/transfer.dto';
import { StatisticsQueryDto } from '../statistics/statistics-query.dto';
import { LoggerParamDto, LogsQueryDto } from '../management/dto/management.dto';
import { createValidationPipe } from './validation';

const pipe = createValidationPipe();

/** What a handler gets for `@Query() dto: cls` and the query string `qs` (Express's simple parser). */
function query<T>(cls: new () => T, qs: string): Promise<T> {
  return pipe.transform(querystring(qs), {
    type: 'query',
    metatype: cls,
    data: undefined,
  }) as Promise<T>;
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('accepted');
}

describe('query DTOs through the global pipe', () => {
  it('take the first of repeated values, the defaults for missing ones, and ignore the rest', async () => {
    expect(await query(QrPngQueryDto, 'size=1024&size=2&extra=1')).toEqual({ size: 1024 });
    expect(await query(QrPngQueryDto, '')).toEqual({ size: 512 });
    expect(await query(QrPngQueryDto, 'size=')).toEqual({ size: 512 });
    expect(await query(ExportQueryDto, 'format=json&format=csv&sharex=1')).toEqual({
      format: 'json',
    });
    expect(await query(ExportQueryDto, 'x=1')).toEqual({ format: 'csv' });
    const own = await query(
      OwnShortsQueryDto,
      'page=2&page=9&size=1000&sort=name,desc&sort=code&search=a&search=b&_=17',
    );
    expect({ ...own }).toEqual({
      page: 2,
      size: 250,
      sort: ['name,desc', 'code'],
      search: 'a',
      // The tag filter is a list: none given, none kept.
      tag: [],
    });
    // …and every repeated tag counts (shorts carrying all of them), blank ones left out.
    expect(
      (await query(OwnShortsQueryDto, 'tag=Herbst&tag=%20&tag=Sale&search=x&search=y')).tag,
    ).toEqual(['Herbst', 'Sale']);
    expect({ ...(await query(OwnShortsQueryDto, '')) }).toMatchObject({
      page: 0,
      size: 20,
      sort: [],
    });
  });

  it('keep the answers of the hand-read queries: field errors, or the plain 400 of paging', async () => {
    const size = await refusal(query(QrPngQueryDto, 'size=1e3'));
    expect(size).toBeInstanceOf(ValidationFailedError);
    expect((size as ValidationFailedError).fieldErrors).toEqual({
      size: 'must be a whole number from 128 to 2048',
    });
    const format = await refusal(query(ExportQueryDto, 'format='));
    expect((format as ValidationFailedError).fieldErrors).toEqual({
      format: 'must be csv or json',
    });
    // Paging: the first bad parameter, page before size, as a plain 400 with its detail.
    const page = await refusal(query(OwnShortsQueryDto, 'size=0&page=-1'));
    expect(page).toBeInstanceOf(BadRequestError);
    expect((page as BadRequestError).message).toBe('page must be an integer of at least 0');
    expect((page as BadRequestError).errorKey).toBe('paging_invalid');
    const logs = await refusal(query(LogsQueryDto, 'startDate=yesterday'));
    expect((logs as BadRequestError).message).toBe('startDate must be an ISO date-time');
    expect(await query(LogsQueryDto, 'startDate=')).toEqual({ startDate: '' });
  });

  it('report every field of the statistics query at once, cross-field rules included', async () => {
    const err = await refusal(
      query(StatisticsQueryDto, 'granularity=week&from=2026-02-01&to=2026-01-01&tz=nowhere'),
    );
    expect((err as ValidationFailedError).fieldErrors).toEqual({
      from: 'must be before to',
      granularity: 'must be hour, day or month',
      tz: 'must be an IANA time zone (e.g. Europe/Berlin)',
    });
    expect(await query(StatisticsQueryDto, 'tz=utc&tz=x&other=1')).toEqual({
      from: undefined,
      to: undefined,
      granularity: undefined,
      tz: 'utc',
    });
  });

  it('path parameter DTOs stay strict; their plain 400 keeps its detail', async () => {
    const err = await refusal(
      pipe.transform(
        { logger: 'a b' },
        { type: 'param', metatype: LoggerParamDto },
      ) as Promise<unknown>,
    );
    expect((err as BadRequestError).message).toBe(
      'Logger names are letters, digits, dots, _ and -',
    );
    expect(
      await pipe.transform({ logger: '__proto__' }, { type: 'param', metatype: LoggerParamDto }),
    ).toEqual({ logger: '__proto__' });
  });

  it('survive keys of Object.prototype and the extended parser’s objects', async () => {
    expect(
      await query(QrPngQueryDto, 'constructor=1&__proto__=2&toString=3&hasOwnProperty=4&size=256'),
    ).toEqual({ size: 256 });
    expect(
      await pipe.transform(
        { size: { a: '1' }, sort: { b: 'c' } },
        { type: 'query', metatype: OwnShortsQueryDto },
      ),
    ).toMatchObject({ size: 20, sort: [] });
  });
});
