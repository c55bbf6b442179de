import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from './client';
import { call } from './teams';

/**
 * Webhooks in the Standard Webhooks format and their delivery log (CONTRACT "Webhooks"): the types
 * of the OpenAPI document (web/src/api/schema.d.ts, generated).
 */

/** The events a webhook may subscribe to (`webhook.test` is sent by the test button only). */
export const WEBHOOK_EVENTS = [
  'short.created',
  'short.updated',
  'short.deleted',
  'short.followed',
  'short.health_changed',
  'domain.verified',
  'domain.failed',
] as const satisfies ReadonlyArray<Schemas['WebhookDto']['events'][number]>;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Every event type a delivery may carry. */
export type WebhookEventType = Schemas['WebhookDto']['events'][number];

/** One webhook, as the list shows it (never its secret). */
export type WebhookDto = Schemas['WebhookDto'];
/** A webhook just created: the secret `whsec_…` is in this answer only. */
export type CreatedWebhookDto = Schemas['CreatedWebhookDto'];
export type WebhookDeliveryStatus = Schemas['WebhookDeliveryDto']['status'];
/** One event's delivery to one webhook (kept 7 days). */
export type WebhookDeliveryDto = Schemas['WebhookDeliveryDto'];

/** A page of deliveries (CONTRACT "Pagination"). */
export interface WebhookDeliveryPage {
  content: WebhookDeliveryDto[];
  number: number;
  numberOfElements: number;
  size: number;
  totalElements: number;
  totalPages: number;
  first: boolean;
  last: boolean;
  empty: boolean;
}

export interface CreateWebhookBody {
  url: string;
  events: WebhookEvent[];
  team?: string;
}

export interface UpdateWebhookBody {
  url?: string;
  events?: WebhookEvent[];
  enabled?: boolean;
}

const id = (s: string) => encodeURIComponent(s);

export const webhooksApi = {
  list: () => call<WebhookDto[]>('GET', '/api/webhooks'),
  create: (body: CreateWebhookBody) => call<CreatedWebhookDto>('POST', '/api/webhooks', body),
  update: (hook: string, body: UpdateWebhookBody) =>
    call<WebhookDto>('PATCH', `/api/webhooks/${id(hook)}`, body),
  remove: (hook: string) => call('DELETE', `/api/webhooks/${id(hook)}`),
  test: (hook: string) => call<unknown>('POST', `/api/webhooks/${id(hook)}/test`),
  deliveries: (hook: string, page: number, size: number) =>
    call<WebhookDeliveryPage>(
      'GET',
      `/api/webhooks/${id(hook)}/deliveries?page=${page}&size=${size}`,
    ),
  retry: (hook: string, delivery: string) =>
    call<unknown>('POST', `/api/webhooks/${id(hook)}/deliveries/${id(delivery)}/retry`),
};

/* ---- react-query hooks (the webhooks page and the team page; never the start page) ---- */

export const WEBHOOKS_KEY = ['get', '/api/webhooks'] as const;
export const DELIVERIES_KEY = ['webhooks', 'deliveries'] as const;

/** The caller's webhooks: his own and his teams'. */
export function useWebhooks() {
  return useQuery({ queryKey: WEBHOOKS_KEY, queryFn: webhooksApi.list });
}

function useReload() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
}

export function useCreateWebhook() {
  const reload = useReload();
  return useMutation({ mutationFn: webhooksApi.create, onSuccess: reload });
}

export function useUpdateWebhook() {
  const reload = useReload();
  return useMutation({
    mutationFn: ({ hook, body }: { hook: string; body: UpdateWebhookBody }) =>
      webhooksApi.update(hook, body),
    onSuccess: reload,
  });
}

export function useDeleteWebhook() {
  const reload = useReload();
  return useMutation({ mutationFn: webhooksApi.remove, onSuccess: reload });
}

export function useTestWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: webhooksApi.test,
    onSuccess: (_d, hook) => void client.invalidateQueries({ queryKey: [...DELIVERIES_KEY, hook] }),
  });
}

/** One page (from 0) of a webhook's delivery log. */
export function useDeliveries(hook: string, page: number, size: number) {
  return useQuery({
    queryKey: [...DELIVERIES_KEY, hook, page, size],
    queryFn: () => webhooksApi.deliveries(hook, page, size),
    placeholderData: keepPreviousData,
  });
}

export function useRetryDelivery(hook: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (delivery: string) => webhooksApi.retry(hook, delivery),
    onSuccess: () => void client.invalidateQueries({ queryKey: [...DELIVERIES_KEY, hook] }),
  });
}
