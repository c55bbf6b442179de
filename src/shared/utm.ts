/**
 * UTM parameters and their templates as server and web client share them (CONTRACT "Marketing
 * links", bullet "UTM").
 */

/** The five UTM fields, as a template names them, and the query parameter each writes. */
export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** `source` → `utm_source`. */
export const utmParam = (f: UtmField): string => `utm_${f}`;

/** A template's name: 1–64 characters; each value at most 200. */
export const UTM_NAME_MAX = 64;
export const UTM_VALUE_MAX = 200;

/** At most this many templates per user (own space) or team. */
export const LIMIT_UTM_TEMPLATES = 50;

/** No control characters (C0, DEL, C1) in a name or a value. */
export const UTM_TEXT_PATTERN = /^\P{Cc}*$/u;
