import { SECTIONS, type Section, type Variable, VARIABLES } from './variables';

/**
 * The README's configuration tables, generated from the table of variables (variables.ts).
 * `npm run config:docs` rewrites the part of README.md between the two markers,
 * `npm run config:check` (CI) fails when it differs. Both run scripts/config-docs.mjs on the build.
 */
export const CONFIG_START = '<!-- config:start -->';
export const CONFIG_END = '<!-- config:end -->';

const GENERATED_NOTE =
  '<!-- Generated from src/config/variables.ts by `npm run config:docs`: edit the table there, not here. -->';

/** A README row: one variable, or a family of variables that share a default and a meaning. */
interface Row {
  names: string[];
  default: string;
  description: string;
}

/** Table cells: a pipe would end the cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function rowsOf(section: Section, table: Record<string, Variable>): Row[] {
  const rows: Row[] = [];
  const families = new Map<string, Row>();
  for (const [name, v] of Object.entries(table)) {
    if (v.section !== section) continue;
    const existing = v.family === undefined ? undefined : families.get(v.family);
    if (existing) {
      existing.names.push(name);
      continue;
    }
    const row = { names: [name], default: v.default, description: v.description };
    if (v.family !== undefined) families.set(v.family, row);
    rows.push(row);
  }
  return rows;
}

/** The generated part of the README: a subsection with a table per section. */
export function renderConfigTables(table: Record<string, Variable> = VARIABLES): string {
  const out: string[] = [GENERATED_NOTE];
  for (const [section, title] of Object.entries(SECTIONS) as Array<[Section, string]>) {
    out.push('', `### ${title}`, '', '| variable | default | meaning |', '|---|---|---|');
    for (const row of rowsOf(section, table)) {
      const names = row.names.map((n) => `\`${n}\``).join(', ');
      out.push(`| ${names} | ${cell(row.default)} | ${cell(row.description)} |`);
    }
  }
  return out.join('\n');
}

/** Where the generated part is: the text between the markers (exclusive). */
function markers(readme: string): { from: number; to: number } {
  const start = readme.indexOf(CONFIG_START);
  const end = readme.indexOf(CONFIG_END);
  if (start < 0 || end < 0 || end < start || readme.indexOf(CONFIG_START, start + 1) >= 0) {
    throw new Error(
      `README.md needs exactly one ${CONFIG_START} … ${CONFIG_END} pair around the configuration tables`,
    );
  }
  return { from: start + CONFIG_START.length, to: end };
}

/** The README with the generated part replaced by `tables`; the prose around it is kept. */
export function withConfigTables(readme: string, tables = renderConfigTables()): string {
  const { from, to } = markers(readme);
  return `${readme.slice(0, from)}\n${tables}\n${readme.slice(to)}`;
}

/**
 * The differences between the README and what the table generates, as `-`/`+` lines of the
 * generated part (empty when it is up to date).
 */
export function configTablesDrift(readme: string, tables = renderConfigTables()): string[] {
  const { from, to } = markers(readme);
  return diffLines(readme.slice(from, to).replace(/^\n|\n$/g, ''), tables);
}

/** A small line diff (longest common subsequence): `-` only in `a`, `+` only in `b`. */
export function diffLines(a: string, b: string): string[] {
  const x = a.split('\n');
  const y = b.split('\n');
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () =>
    new Array<number>(y.length + 1).fill(0),
  );
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      i++;
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push(`- ${x[i++]}`);
    } else {
      out.push(`+ ${y[j++]}`);
    }
  }
  return out;
}
