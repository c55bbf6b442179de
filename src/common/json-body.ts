import express, { type Request, type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { findNul, NUL_MESSAGE } from './db-limits';
import { ValidationFailedError } from './errors';
import { findTooDeep, MAX_JSON_DEPTH } from './json-depth';

/**
 * Reads a JSON body into `req.body` and calls `done` with nothing or with the refusal to pass on
 * (body-parser's errors: too large, malformed, nested too deeply, a forbidden key; a NUL anywhere).
 */
export type BodyReader = (
  req: IncomingMessage,
  res: ServerResponse,
  done: (error?: unknown) => void,
) => void;

/** The outcome of a body that was read before Express (`done`'s error), kept on the request. */
export const BODY_READ = Symbol('bodyRead');
export type BodyReadRequest = IncomingMessage & { [BODY_READ]?: { error?: unknown } };

/** The app's JSON body reader with a size limit (configureApp's, and the create entry's). */
export function jsonBodyReader(limit: string): BodyReader {
  const parse = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    // Prototype keys are never data: refuse the body as malformed.
    reviver: (key: string, value: unknown) => {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
        throw new SyntaxError('Forbidden key in JSON body');
      }
      return value;
    },
    // Deep nesting is refused before parsing: the reviver and class-transformer recurse per level.
    verify: (_req: unknown, _res: unknown, buf: Buffer) => {
      const field = findTooDeep(buf);
      if (field !== null) {
        throw new ValidationFailedError({
          [field]: `must not be nested deeper than ${MAX_JSON_DEPTH} levels`,
        });
      }
    },
  });
  return (req, res, done) =>
    parse(req as Request, res as Response, (err?: unknown) => {
      if (err) return done(err);
      const field = findNul((req as Request).body);
      if (field !== null) return done(new ValidationFailedError({ [field]: NUL_MESSAGE }));
      done();
    });
}
