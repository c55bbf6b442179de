/** JSON bodies nested deeper than this are refused before they are parsed. */
export const MAX_JSON_DEPTH = 32;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Finds nesting deeper than `max` in a JSON text, in one pass over its bytes (structural
 * characters are ASCII, so UTF-8 needs no decoding), before anything recursive (the parser's
 * reviver, class-transformer, class-validator) sees it. Returns the top-level field that holds the
 * deep value (`body` when the body itself is an array or the key is unknown), or null when the
 * text is shallow enough. Malformed JSON is left to the parser.
 */
export function findTooDeep(buf: Uint8Array, max = MAX_JSON_DEPTH): string | null {
  let depth = 0;
  let topIsObject = false;
  let inString = false;
  let stringStart = 0;
  let lastTopString: [number, number] | null = null;
  let topKey: [number, number] | null = null;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (depth === 1) lastTopString = [stringStart, i + 1];
      }
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      stringStart = i;
    } else if (c === COLON) {
      if (depth === 1) topKey = lastTopString;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 0) topIsObject = c === OPEN_OBJECT;
      depth++;
      if (depth > max) return topIsObject && topKey ? keyName(buf, topKey) : 'body';
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return null;
}

function keyName(buf: Uint8Array, [start, end]: [number, number]): string {
  try {
    const key: unknown = JSON.parse(Buffer.from(buf.subarray(start, end)).toString('utf8'));
    return typeof key === 'string' && key.length <= 100 ? key : 'body';
  } catch {
    return 'body';
  }
}
