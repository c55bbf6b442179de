import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_END,
  CONFIG_START,
  configTablesDrift,
  diffLines,
  renderConfigTables,
  withConfigTables,
} from './docs';
import { SECTIONS, VARIABLE_NAMES, type Variable, VARIABLES } from './variables';

const README = readFileSync(resolve('README.md'), 'utf8');
const table = VARIABLES as Record<string, Variable>;

describe('README configuration tables', () => {
  it('are up to date with the table (else: npm run build && npm run config:docs)', () => {
    expect(configTablesDrift(README)).toEqual([]);
    expect(withConfigTables(README)).toBe(README);
  });

  it('document every variable exactly once, under its section', () => {
    const documented: Array<[string, string]> = [];
    let section = '';
    for (const line of renderConfigTables().split('\n')) {
      if (line.startsWith('### ')) section = line.slice(4);
      const names = /^\| (`[A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*) \|/.exec(line)?.[1];
      for (const n of names?.split(', ') ?? []) documented.push([n.slice(1, -1), section]);
    }
    expect(documented.map(([n]) => n).sort()).toEqual([...VARIABLE_NAMES].sort());
    for (const [name, title] of documented) expect(title, name).toBe(SECTIONS[table[name].section]);
  });

  it('give a family one row, with one default and one meaning', () => {
    const families = new Map<string, Variable>();
    for (const v of Object.values(table)) {
      if (v.family === undefined) continue;
      const first = families.get(v.family);
      if (!first) families.set(v.family, v);
      else
        expect({ section: v.section, default: v.default, description: v.description }).toEqual({
          section: first.section,
          default: first.default,
          description: first.description,
        });
    }
    expect(renderConfigTables()).toContain(
      '| `AUTH_GITHUB_CLIENT_ID`, `AUTH_GITHUB_CLIENT_SECRET` | unset | enables login with GitHub |',
    );
  });

  it('show the defaults the parsers use', () => {
    for (const [name, v] of Object.entries(table)) {
      if (v.parse.fallback === undefined || v.family !== undefined) continue;
      expect(v.default.startsWith(`\`${String(v.parse.fallback)}\``), name).toBe(true);
    }
  });

  it('drift is detected: a changed variable, an edited README, missing markers', () => {
    const changed = {
      ...table,
      PORT: { ...table.PORT, description: 'the HTTP port' },
    };
    expect(configTablesDrift(README, renderConfigTables(changed))).toEqual([
      '- | `PORT` | `8080` | HTTP port |',
      '+ | `PORT` | `8080` | the HTTP port |',
    ]);

    const edited = README.replace('| `WEB_DIR` | `dist/web` |', '| `WEB_DIR` | `web` |');
    expect(edited).not.toBe(README);
    expect(configTablesDrift(edited)).toHaveLength(2);
    expect(withConfigTables(edited)).toBe(README);

    const withoutTables = README.replace(
      README.slice(README.indexOf(CONFIG_START), README.indexOf(CONFIG_END)),
      CONFIG_START,
    );
    expect(configTablesDrift(withoutTables).length).toBeGreaterThan(40);
    expect(withConfigTables(withoutTables)).toBe(README);

    expect(() => configTablesDrift(README.replace(CONFIG_END, ''))).toThrow(
      /needs exactly one <!-- config:start --> … <!-- config:end --> pair/,
    );
  });

  it('keep the prose around them', () => {
    const readme = `# T\n\nbefore\n\n${CONFIG_START}\nold\n${CONFIG_END}\n\nafter\n`;
    expect(withConfigTables(readme, 'new')).toBe(
      `# T\n\nbefore\n\n${CONFIG_START}\nnew\n${CONFIG_END}\n\nafter\n`,
    );
  });
});

describe('diffLines', () => {
  it('marks removed and added lines around common ones', () => {
    expect(diffLines('a\nb\nc', 'a\nc\nd')).toEqual(['- b', '+ d']);
    expect(diffLines('same', 'same')).toEqual([]);
  });
});
