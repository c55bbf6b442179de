import { Header } from '@nestjs/common';

/**
 * `Cache-Control: no-store`: what browsers and proxies must not keep. Every problem answer, every
 * personal answer (account, API key, own shorts, statistics, reports, exports), health and metrics,
 * and the redirects of a follow or a login.
 */
export const NO_STORE = ['Cache-Control', 'no-store'] as const;

/**
 * On a handler: its answer is not stored. Nest sets the header before the handler runs (after the
 * guards), so it holds for handlers that write the response themselves (`@Res()`) too; problems
 * carry it anyway (sendProblem).
 */
export const NoStore = (): MethodDecorator => Header(...NO_STORE);

/** The same on a response written by hand (filters, middleware, the follow fast entry). */
export function noStore(res: { setHeader(name: string, value: string): unknown }): void {
  res.setHeader(...NO_STORE);
}
