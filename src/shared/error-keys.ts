/**
 * Every stable `errorKey` the API answers. A problem's `detail` is an English sentence (fixed by the
 * contract, ShareX shows it); its `errorKey` is what clients translate. The server's errors are
 * typed by this list, and so are the web client's catalogues: a key added here needs a text in
 * every language before the client compiles.
 */
export const ERROR_KEYS = [
  // any request (by status, when nothing more specific applies)
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'request_header_fields_too_large',
  'internal_error',
  'service_unavailable',
  // the request itself
  'json_invalid',
  'body_too_large',
  'content_type_unsupported',
  'nul_refused',
  // accounts, sessions, API keys
  'account_not_activated',
  'admin_required',
  'not_owner',
  'api_key_invalid',
  'api_key_in_query',
  'api_key_missing',
  'cross_site_refused',
  'provider_not_enabled',
  'login_needs_session',
  'self_change_refused',
  // shorts: their fields (create, edit, import rows)
  'entity_not_exists',
  'url_missing',
  'url_invalid',
  'url_blacklisted',
  'url_self',
  'code_invalid',
  'code_reserved',
  'code_exists',
  'name_invalid',
  'name_too_long',
  'expire_invalid',
  'expire_past',
  'uses_invalid',
  'uses_min',
  'password_invalid',
  'field_not_allowed',
  'row_invalid',
  'rules_invalid',
  'rules_too_many',
  'rule_condition_invalid',
  'rule_url_invalid',
  'rule_url_blacklisted',
  // shorts: reading and following
  'password_required',
  'password_wrong',
  'password_locked',
  'target_hidden',
  // own domains
  'domain_invalid',
  'domain_main_host',
  'domain_taken',
  'domain_in_use',
  'domain_forbidden',
  'domain_unknown',
  'redirect_invalid',
  'dns_no_record',
  'dns_token_mismatch',
  'dns_timeout',
  'dns_failed',
  'quota_exceeded',
  // reports, limits, QR, admin
  'report_exists',
  'rate_limited',
  'qr_busy',
  'query_invalid',
  'entity_unknown',
  'entity_not_editable',
  'entity_not_deletable',
  'entity_id_invalid',
  'body_not_object',
  'field_unknown',
  'field_read_only',
  'field_required',
  'field_invalid',
] as const;

export type ErrorKey = (typeof ERROR_KEYS)[number];

/** The key of a status when nothing more specific applies. */
export const STATUS_ERROR_KEYS: Readonly<Record<number, ErrorKey>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  431: 'request_header_fields_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** The key of any status: its own, else the class's (4xx: bad_request, 5xx: internal_error). */
export function statusErrorKey(status: number): ErrorKey {
  return STATUS_ERROR_KEYS[status] ?? (status < 500 ? 'bad_request' : 'internal_error');
}
