import { applyDecorators, HttpCode, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiNoContentResponse, ApiParam } from '@nestjs/swagger';
import { RequireUser } from './auth.guard';
import { BadRequestError } from './errors';

/**
 * Decorator sets the controllers repeat, written once: how a logged-in call authenticates (for the
 * OpenAPI document) and the answer without a body.
 */

/** Documents the two ways a logged-in caller authenticates: the session cookie, or an API key. */
export const ApiSignedIn = () => applyDecorators(ApiBearerAuth('apiKey'), ApiCookieAuth('session'));

/** A route for logged-in callers (RequireUser: 401/403), documented with both ways in. */
export const UserRoute = () => applyDecorators(RequireUser(), ApiSignedIn());

/** A route that answers 204 without a body. */
export const NoContent = (description?: string) =>
  applyDecorators(
    HttpCode(204),
    ApiNoContentResponse(description === undefined ? undefined : { description }),
  );

/** A POST that runs an action and answers 200 with its result (nothing is created: no 201). */
export const PostAction = (path: string) => applyDecorators(Post(path), HttpCode(200));

/** Documents the `{id}` path parameter of a route: a UUID (the route parses it with uuidParam). */
export const ApiIdParam = (description?: string) =>
  ApiParam({ name: 'id', ...(description === undefined ? {} : { description }), format: 'uuid' });

/** Parses a UUID path parameter; anything else is 400 `id_invalid` with the pipe's sentence. */
export const uuidParam = () =>
  new ParseUUIDPipe({
    version: '4',
    exceptionFactory: (detail) => new BadRequestError(detail, 'id_invalid'),
  });
