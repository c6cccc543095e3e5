import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const RECORDS = join(ROOT, 'docs', 'decisions');
const RECORD_FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const CITATION = /\bADR-(\d{4})\b/g;
const SCANNED = ['apps', 'libs', 'test', 'docs', 'tools', 'README.md', 'k8s', 'docker', '.ci'];
const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?|gz|tgz|zip|pdf)$/i;

/** The record files of docs/decisions, by their four-digit number. */
function recordFiles(): Map<string, string> {
  const records = new Map<string, string>();
  for (const name of readdirSync(RECORDS)) {
    const match = RECORD_FILE.exec(name);
    if (match) records.set(match[1], name);
  }
  return records;
}

/** The tracked text files where a citation may appear (git knows which files are the project's). */
function trackedTextFiles(): string[] {
  const output = execFileSync('git', ['ls-files', '-z', '--', ...SCANNED], { cwd: ROOT, encoding: 'utf8' });
  return output.split('\0').filter((path) => path !== '' && !BINARY.test(path) && existsSync(join(ROOT, path)));
}

describe('decision records (docs/decisions)', () => {
  const records = recordFiles();

  it('are numbered from 0001 without gaps, each titled with its own number', () => {
    const numbers = [...records.keys()].sort();
    expect(numbers.length).toBeGreaterThanOrEqual(16);
    expect(numbers).toEqual(numbers.map((_, index) => String(index + 1).padStart(4, '0')));
    for (const [number, name] of records) {
      const firstLine = readFileSync(join(RECORDS, name), 'utf8').split('\n')[0];
      expect({ name, titled: firstLine.startsWith(`# ADR-${number}: `) }).toEqual({ name, titled: true });
    }
  });

  it('are every one listed in the index of docs/decisions/README.md, which lists no other', () => {
    const index = readFileSync(join(RECORDS, 'README.md'), 'utf8');
    const listed = [...index.matchAll(/\]\(((\d{4})-[^)]+\.md)\)/g)].map((match) => match[1]);
    expect([...new Set(listed)].sort()).toEqual([...records.values()].sort());
  });

  it('exist for every ADR citation in the tracked sources and docs', () => {
    const missing: string[] = [];
    for (const path of trackedTextFiles()) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      for (const match of text.matchAll(CITATION)) {
        if (!records.has(match[1])) missing.push(`${path}: ${match[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('are what the sources cite: no citation of a design document outside the repository', () => {
    // The product brief and the conventions live outside this repository; a reader of the code
    // can follow only what the repository holds.
    const outside = /\b(?:decisions|conventions) §\d/;
    const citing = trackedTextFiles().filter((path) => outside.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(citing).toEqual([]);
  });

  it('link only to files and folders that exist', () => {
    const broken: string[] = [];
    for (const name of [...records.values(), 'README.md']) {
      const text = readFileSync(join(RECORDS, name), 'utf8');
      for (const match of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = match[1];
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(dirname(join(RECORDS, name)), target))) broken.push(`${name}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
