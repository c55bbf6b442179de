import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { LogService, prettyLine } from './log.service';

function service(env: Record<string, string> = {}): LogService {
  return new LogService(loadConfig({ LOG_LEVEL: 'info', LOG_STDOUT: 'false', ...env }));
}

describe('LogService and Nest', () => {
  it("writes Nest's module wiring and route mapping at debug, other contexts at their level", () => {
    const log = service({ LOG_LEVEL: 'debug' });
    log.log('AppModule dependencies initialized', 'InstanceLoader');
    log.log('ShortController {/api/code}:', 'RoutesResolver');
    log.log('Mapped {/api/code, POST} route', 'RouterExplorer');
    log.log('Starting Nest application...', 'NestFactory');
    log.log('Nest application successfully started', 'NestApplication');
    log.warn('a warning', 'RoutesResolver');
    log.log('Listening', 'Bootstrap');
    expect(log.recent().map((e) => [e.logger, e.level])).toEqual([
      ['InstanceLoader', 'debug'],
      ['RoutesResolver', 'debug'],
      ['RouterExplorer', 'debug'],
      ['NestFactory', 'debug'],
      ['NestApplication', 'debug'],
      ['RoutesResolver', 'warn'],
      ['Bootstrap', 'info'],
    ]);
  });

  it('at info, keeps only what is not boot chatter', () => {
    const log = service();
    log.log('AppModule dependencies initialized', 'InstanceLoader');
    log.log('Mapped {/api/code, POST} route', 'RouterExplorer');
    log.log('Listening', 'Bootstrap');
    expect(log.recent().map((e) => e.message)).toEqual(['Listening']);
  });

  it('keeps JSON lines for /management/logs whatever LOG_FORMAT says', () => {
    const log = service({ LOG_FORMAT: 'pretty' });
    log.write('info', 'test', 'hello', { n: 1 });
    expect(log.recent()).toEqual([
      expect.objectContaining({ level: 'info', logger: 'test', message: 'hello', n: 1 }),
    ]);
  });
});

describe('pretty lines', () => {
  const line = JSON.stringify({
    level: 'warn',
    time: '2026-12-06T12:00:00.123Z',
    logger: 'http',
    requestId: 'req-42',
    message: 'GET /x 500',
    status: 500,
  });

  it('read time, level, logger, request id and message on one line, without colour off a terminal', () => {
    const text = prettyLine(false)(line);
    expect(text).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:00\.123\] WARN: http \[req-42\]: GET \/x 500 \{"status":500\}\n$/,
    );
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it('leave the request id out when there is none, and colour on a terminal', () => {
    const plain = JSON.stringify({
      level: 'info',
      time: '2026-12-06T12:00:00.000Z',
      logger: 'app',
      message: 'hi',
    });
    expect(prettyLine(false)(plain)).toMatch(/\] INFO: app: hi\n$/);
    // eslint-disable-next-line no-control-regex
    expect(prettyLine(true)(plain)).toMatch(/\u001b\[/);
  });
});
