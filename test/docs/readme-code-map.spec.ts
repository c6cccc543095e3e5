import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The README's code map: its table's rows, between the sentence that names this test and the next blank line. */
function codeMapRows(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('| behaviour | entry file, then |');
  if (start < 0) throw new Error('README.md has no code map');
  const end = readme.indexOf('\n\n', start);
  return readme.slice(start, end).split('\n').slice(2);
}

describe("README's code map", () => {
  it('names only files and folders that exist, in every row', () => {
    const rows = codeMapRows();
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const row of rows) {
      const paths = [...row.matchAll(/`((?:libs|apps|test)\/[^`\s]+)`/g)].map((match) => match[1]);
      expect({ row, paths: paths.length > 0 }).toEqual({ row, paths: true });
      for (const path of paths) expect({ path, exists: existsSync(join(ROOT, path)) }).toEqual({ path, exists: true });
    }
  });
});
