import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** Every `.yaml`/`.yml` file under `dir`, recursively, sorted. */
export function listYamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The documents of a (multi-document) YAML file as plain values; empty documents are dropped.
 * Throws on any syntax error or duplicate key, naming the file.
 */
export function readYamlDocuments(file: string, options: { merge?: boolean } = {}): unknown[] {
  return parseYamlDocuments(readFileSync(file, 'utf8'), file, options);
}

export function parseYamlDocuments(source: string, origin: string, options: { merge?: boolean } = {}): unknown[] {
  const documents = parseAllDocuments(source, { merge: options.merge ?? false, uniqueKeys: true });
  if (!Array.isArray(documents)) return [];
  return documents.flatMap((document, index) => {
    const problems = [...document.errors, ...document.warnings];
    if (problems.length > 0) {
      throw new Error(`${origin} (document ${index + 1}): ${problems.map((problem) => problem.message).join('; ')}`);
    }
    const value: unknown = document.toJS({ maxAliasCount: 1000 });
    return value === null || value === undefined ? [] : [value];
  });
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
