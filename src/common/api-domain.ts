import { ApiQuery } from '@nestjs/swagger';

/**
 * The `domain` query parameter of the calls a short's pages make (info, metadata, QR, report): on
 * this service's host it names the verified own domain whose code is meant (the owner's pages,
 * opened from the own list); on an own domain the request's `Host` decides and it is ignored.
 */
export const ApiDomainQuery = () =>
  ApiQuery({
    name: 'domain',
    required: false,
    schema: { type: 'string', maxLength: 253 },
    description:
      'The own domain whose code is meant (a verified host); default: the host the request was sent to',
  });
