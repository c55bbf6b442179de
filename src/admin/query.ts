import { parse, type LiqeQuery } from 'liqe';
import { BadRequestError } from '../common/errors';

/** A query the compiler cannot take: 400 with `errorKey: "query_invalid"`. */
const queryError = (detail: string) => new BadRequestError(detail, 'query_invalid');

/**
 * Lucene-style admin search compiled to a parameterised SQL condition.
 *
 * The query is parsed by `liqe` (fields, quoted phrases, AND/OR/NOT, `-`, parentheses, `*`
 * wildcards, `:>`/`:<` comparisons, `[a TO b]` ranges, free text). Only fields from the entity's
 * allow-list can be named; every value becomes a bound parameter, never SQL text. Wildcards turn
 * into LIKE patterns in which `%`, `_` and the escape character itself are escaped.
 */

/** The entities of the admin API, in the order GET /api/admin/entity lists them (see entities.ts). */
export const ADMIN_ENTITY_NAMES = [
  'users',
  'shorts',
  'reports',
  'blacklist',
  'apikeys',
  'domains',
  'teams',
  'pages',
] as const;
export type AdminEntityName = (typeof ADMIN_ENTITY_NAMES)[number];

export type FieldType = 'text' | 'keyword' | 'number' | 'boolean' | 'date' | 'enum';

export interface SearchField {
  name: string;
  type: FieldType;
  /** SQL expression for the column, built from trusted identifiers only. */
  sql: string;
  /** Included in free-text search (terms without a field). */
  freeText?: boolean;
  values?: readonly string[];
}

export interface CompiledCondition {
  sql: string;
  params: Record<string, unknown>;
}

export const MAX_QUERY_LENGTH = 1000;
const LIKE_ESCAPE = '!';

/** Escapes LIKE metacharacters so that they match themselves (ESCAPE '!'). */
export function escapeLike(s: string): string {
  return s.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c);
}

/** `*` → `%`, `?` → `_`; everything else literal. */
function wildcardToLike(s: string): string {
  let out = '';
  for (const ch of s) {
    if (ch === '*') out += '%';
    else if (ch === '?') out += '_';
    else out += escapeLike(ch);
  }
  return out;
}

function hasWildcard(s: string): boolean {
  return /[*?]/.test(s);
}

type Node = LiqeQuery;
type Tag = Extract<Node, { type: 'Tag' }>;

class Compiler {
  private n = 0;
  readonly params: Record<string, unknown> = {};

  constructor(
    private readonly entity: string,
    private readonly fields: readonly SearchField[],
  ) {}

  private param(value: unknown): string {
    const name = `q${this.n++}`;
    this.params[name] = value;
    return `:${name}`;
  }

  compile(node: Node, depth = 0): string {
    if (depth > 64) throw queryError('Query is nested too deeply');
    switch (node.type) {
      case 'EmptyExpression':
        return '1=1';
      case 'ParenthesizedExpression':
        return `(${this.compile(node.expression as Node, depth + 1)})`;
      case 'UnaryOperator':
        return `NOT (${this.compile(node.operand as Node, depth + 1)})`;
      case 'LogicalExpression': {
        const op = node.operator.operator === 'OR' ? 'OR' : 'AND';
        return `(${this.compile(node.left as Node, depth + 1)} ${op} ${this.compile(node.right as Node, depth + 1)})`;
      }
      case 'Tag':
        return this.tag(node);
      default:
        throw queryError('Unsupported query expression');
    }
  }

  private field(name: string): SearchField {
    const f =
      this.fields.find((x) => x.name === name) ??
      this.fields.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!f) {
      throw queryError(
        `Unknown field "${name}" for ${this.entity}; known fields: ${this.fields.map((x) => x.name).join(', ')}`,
      );
    }
    return f;
  }

  private tag(node: Tag): string {
    const expr = node.expression;
    if (node.field.type === 'ImplicitField') {
      if (expr.type !== 'LiteralExpression' || expr.value === null || expr.value === undefined) {
        throw queryError('Free text must be a word or a quoted phrase');
      }
      const text = String(expr.value);
      const targets = this.fields.filter((f) => f.freeText);
      if (!targets.length) throw queryError(`${this.entity} has no free-text fields; name a field`);
      const pattern =
        hasWildcard(text) && !expr.quoted ? wildcardToLike(text) : `%${escapeLike(text)}%`;
      const p = this.param(pattern.toLowerCase());
      return `(${targets.map((f) => `LOWER(${f.sql}) LIKE ${p} ESCAPE '${LIKE_ESCAPE}'`).join(' OR ')})`;
    }
    const f = this.field(node.field.name);
    const op = node.operator.operator;
    if (expr.type === 'RegexExpression')
      throw queryError('Regular expressions are not supported in queries');
    if (expr.type === 'EmptyExpression') throw queryError(`Missing value for field "${f.name}"`);
    if (expr.type === 'RangeExpression') {
      if (f.type !== 'number')
        throw queryError(`Ranges are only supported on number fields ("${f.name}")`);
      const r = expr.range;
      return `(${f.sql} ${r.minInclusive ? '>=' : '>'} ${this.param(r.min)} AND ${f.sql} ${r.maxInclusive ? '<=' : '<'} ${this.param(r.max)})`;
    }
    const value = expr.value;
    if (value === null) {
      if (op !== ':' && op !== ':=')
        throw queryError(`null can only be matched with ":" ("${f.name}")`);
      return `${f.sql} IS NULL`;
    }
    const cmp =
      op === ':>' ? '>' : op === ':>=' ? '>=' : op === ':<' ? '<' : op === ':<=' ? '<=' : null;
    switch (f.type) {
      case 'number': {
        const n = typeof value === 'number' ? value : Number(value);
        if (typeof value === 'boolean' || !Number.isFinite(n)) {
          throw queryError(`Field "${f.name}" needs a number`);
        }
        return `${f.sql} ${cmp ?? '='} ${this.param(n)}`;
      }
      case 'boolean': {
        const s = String(value).toLowerCase();
        if (cmp || !['true', 'false', '1', '0'].includes(s)) {
          throw queryError(`Field "${f.name}" needs true or false`);
        }
        return `${f.sql} = ${this.param(s === 'true' || s === '1' ? 1 : 0)}`;
      }
      case 'date': {
        const s = String(value);
        const day = /^\d{4}-\d{2}-\d{2}$/.test(s);
        const d = new Date(day ? `${s}T00:00:00.000Z` : s);
        if (Number.isNaN(d.getTime())) {
          throw queryError(
            `Field "${f.name}" needs an ISO date such as 2024-05-01 or "2024-05-01T12:00:00Z"`,
          );
        }
        if (cmp) return `${f.sql} ${cmp} ${this.param(d)}`;
        if (!day) return `${f.sql} = ${this.param(d)}`;
        const next = new Date(d.getTime() + 86_400_000);
        return `(${f.sql} >= ${this.param(d)} AND ${f.sql} < ${this.param(next)})`;
      }
      case 'enum':
      case 'keyword':
      case 'text': {
        if (cmp)
          throw queryError(
            `Comparisons are only supported on number and date fields ("${f.name}")`,
          );
        const s = String(value);
        const wildcard = !expr.quoted && hasWildcard(s);
        if (f.type === 'text') {
          const pattern = wildcard ? wildcardToLike(s) : `%${escapeLike(s)}%`;
          return `LOWER(${f.sql}) LIKE ${this.param(pattern.toLowerCase())} ESCAPE '${LIKE_ESCAPE}'`;
        }
        if (wildcard)
          return `${f.sql} LIKE ${this.param(wildcardToLike(s))} ESCAPE '${LIKE_ESCAPE}'`;
        let v = s;
        if (f.type === 'enum' && f.values) {
          const match = f.values.find((x) => x.toLowerCase() === s.toLowerCase());
          if (!match) throw queryError(`Field "${f.name}" is one of ${f.values.join(', ')}`);
          v = match;
        }
        return `${f.sql} = ${this.param(v)}`;
      }
    }
  }
}

/** Parses and compiles a query; a blank query matches everything. Errors are 400 with a clear detail. */
export function compileQuery(
  entity: string,
  query: string,
  fields: readonly SearchField[],
): CompiledCondition {
  if (query.length > MAX_QUERY_LENGTH)
    throw queryError(`Query is longer than ${MAX_QUERY_LENGTH} characters`);
  if (!query.trim()) return { sql: '1=1', params: {} };
  let ast: Node;
  try {
    ast = parse(query);
  } catch (err) {
    const msg = err instanceof Error ? err.message : '';
    const where = /line \d+ column \d+/.exec(msg)?.[0];
    throw queryError(
      where
        ? `Query syntax error at ${where}; quote values with special characters, e.g. name:"50% off"`
        : 'Query syntax error: the query is incomplete (unbalanced parentheses or quotes?)',
    );
  }
  const c = new Compiler(entity, fields);
  const sql = c.compile(ast);
  return { sql, params: c.params };
}
