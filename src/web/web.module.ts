import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { WebMiddleware } from './web.middleware';

/**
 * The built web client, served by the same process. The middleware passes every
 * path the server owns (/api, /management, /s/{code}) on to the routes.
 */
@Module({ providers: [WebMiddleware] })
export class WebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
