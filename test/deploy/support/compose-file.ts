import { readFileSync } from 'node:fs';
import { parseYamlDocuments, isRecord } from './yaml-files';

/**
 * Compose variable interpolation: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?message}`, `${VAR?message}`, `${VAR:+alternative}`, `${VAR+alternative}`.
 * Throws when a required variable is missing, as `docker compose` does.
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name: string | undefined, colon: string | undefined, operator: '-' | '?' | '+' | undefined, operand: string | undefined, bare: string | undefined) => {
      if (whole === '$$') return '$';
      const variable = (name ?? bare) as string;
      const value = env[variable];
      const unset = value === undefined || (colon === ':' && value === '');
      switch (operator) {
        case '-':
          return unset ? (operand ?? '') : (value as string);
        case '?':
          if (unset) throw new Error(`required variable ${variable} is missing: ${operand}`);
          return value as string;
        case '+':
          return unset ? '' : (operand ?? '');
        case undefined:
          return value ?? '';
      }
    },
  );
}

/** Interpolates every string value (not keys) of a parsed compose file. */
export function interpolateValues(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateValues(item, env));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateValues(item, env)]));
  return value;
}

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  ports?: (string | number | { target?: number; published?: number })[];
  profiles?: string[];
  restart?: string;
  [key: string]: unknown;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  [key: string]: unknown;
}

/** The compose file as YAML gives it (anchors and `<<` merge keys resolved), not interpolated. */
export function readComposeFile(file: string): Record<string, unknown> {
  const documents = parseYamlDocuments(readFileSync(file, 'utf8'), file, { merge: true });
  if (documents.length !== 1 || !isRecord(documents[0])) throw new Error(`${file}: expected one YAML mapping`);
  return documents[0];
}

/** `environment` in either form (map or KEY=value list) as a map of strings. */
export function environmentOf(service: ComposeService): Record<string, string> {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(environment.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]));
  }
  return Object.fromEntries(
    Object.entries(environment)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => [key, String(value)]),
  );
}

/** `depends_on` in either form as a map of conditions. */
export function dependenciesOf(service: ComposeService): Record<string, string> {
  const dependsOn = service.depends_on ?? {};
  if (Array.isArray(dependsOn)) return Object.fromEntries(dependsOn.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(dependsOn).map(([name, { condition }]) => [name, condition]));
}

export const commandOf = (service: ComposeService): string[] =>
  typeof service.command === 'string' ? service.command.split(/\s+/).filter(Boolean) : (service.command ?? []);
