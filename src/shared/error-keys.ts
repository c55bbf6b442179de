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
  'request_malformed',
  'body_unreadable',
  'route_unknown',
  'id_invalid',
  'path_invalid',
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
  'username_invalid',
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
  // shorts: tags and bulk edits
  'tag_invalid',
  'too_many_tags',
  'bulk_conflict',
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
  // teams and scoped API keys
  'scope_missing',
  'team_forbidden',
  'team_not_empty',
  'team_last_owner',
  'team_full',
  'invite_invalid',
  'api_key_name_exists',
  'api_key_scope_invalid',
  // webhooks
  'webhook_url_invalid',
  'webhook_unknown',
  // reports, limits, QR, admin
  'report_exists',
  'rate_limited',
  'qr_busy',
  'query_invalid',
  'paging_invalid',
  'sort_invalid',
  'sort_field_unknown',
  'figures_disabled',
  // the blacklist (admin)
  'blacklist_exists',
  'blacklist_too_long',
  'blacklist_host_invalid',
  'blacklist_empty',
  'blacklist_regex_invalid',
  // management (Spring Boot Actuator's calls)
  'log_level_invalid',
  'logger_name_invalid',
  'start_date_invalid',
  // the admin area
  'entity_unknown',
  'entity_not_editable',
  'entity_not_deletable',
  'entity_id_invalid',
  'body_not_object',
  'field_unknown',
  'field_read_only',
  'field_required',
  'field_invalid',
  // social previews
  'preview_invalid',
  'preview_too_long',
  'preview_image_invalid',
  // link pages
  'slug_invalid',
  'slug_reserved',
  'slug_exists',
  'page_link_invalid',
  // QR styles
  'qr_contrast',
] as const;

export type ErrorKey = (typeof ERROR_KEYS)[number];

/**
 * Where inside a request body a field error is (a problem's `fieldErrorPaths`): the field, then the
 * keys and indexes (from 0) below it, e.g. `['rules', 2, 'conditions', 0]` for the first condition of
 * the third rule. The English sentence of `fieldErrors` says the same for people.
 */
export type FieldErrorPath = readonly (string | number)[];

/**
 * The keys that only name a status whose answers have several reasons here. No answer of this
 * service's own code carries one (`SpecificErrorKey` types the errors it throws, an e2e sweep checks
 * the answers): they remain for what the framework answers on its own (STATUS_ERROR_KEYS). A status
 * with a single reason keeps its key as the specific one (401 `unauthorized`: no credentials; 500
 * `internal_error`: a bug; 503 `service_unavailable`: a dependency is down; 408 and 431 of Node's
 * HTTP parser).
 */
export const GENERIC_ERROR_KEYS = [
  'bad_request',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
] as const satisfies readonly ErrorKey[];

export type GenericErrorKey = (typeof GENERIC_ERROR_KEYS)[number];

/** A key that says what went wrong, more than the status does: what every thrown error carries. */
export type SpecificErrorKey = Exclude<ErrorKey, GenericErrorKey>;

let known: { all: ReadonlySet<string>; generic: ReadonlySet<string> } | null = null;

/** Whether `key` is a key of the list that says more than its status (see GENERIC_ERROR_KEYS). */
export function isSpecificErrorKey(key: unknown): key is SpecificErrorKey {
  // Built on first use, not at import: a module without top-level work lets the web client's
  // bundle leave the key list out (it knows the keys from its catalogue).
  known ??= { all: new Set(ERROR_KEYS), generic: new Set(GENERIC_ERROR_KEYS) };
  return typeof key === 'string' && known.all.has(key) && !known.generic.has(key);
}

/** The key of a status, for answers the framework gives on its own (nothing more specific known). */
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
