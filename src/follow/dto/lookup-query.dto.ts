import { PickType } from '@nestjs/swagger';
import { QueryText } from '../../common/query';
import { LOOKUP_QUERY } from '../../shared/lookup-query';

const { domain, password, redirect, acceptDanger } = LOOKUP_QUERY;

/**
 * The query of the routes that look a short up by its code (lookup-query.ts's rows, read as the
 * pipe reads every query DTO: first values, undeclared parameters ignored). Each route takes the
 * parameters it knows (the Pick classes below); `GET /api/code/{code}` takes them all.
 */
export class LookupQueryDto {
  @QueryText({ description: domain.description, maxLength: domain.maxLength })
  domain?: string;

  @QueryText({ description: password.description })
  password?: string;

  @QueryText({ description: redirect.description, enum: redirect.enum })
  redirect?: string;

  @QueryText({ description: acceptDanger.description, enum: acceptDanger.enum })
  accept_danger?: string;
}

/** QR codes and the report: the own domain a code is meant on. */
export class DomainQueryDto extends PickType(LookupQueryDto, ['domain'] as const) {}

/** Metadata: the domain and the password that reveals a protected short's target. */
export class RevealQueryDto extends PickType(LookupQueryDto, ['domain', 'password'] as const) {}

/** `GET /s/{code}`: the password and the accepted warning. */
export class FollowQueryDto extends PickType(LookupQueryDto, [
  'password',
  'accept_danger',
] as const) {}

/** `POST /s/{code}` (the password is in the body): the accepted warning. */
export class PostedFollowQueryDto extends PickType(LookupQueryDto, ['accept_danger'] as const) {}
