import { readFileSync } from 'node:fs';

/** One Dockerfile instruction, continuation lines joined. */
export interface Instruction {
  keyword: string;
  /** The arguments as written (after the keyword), on one line. */
  args: string;
  line: number;
}

export interface Stage {
  /** The FROM image after global ARG defaults are substituted. */
  image: string;
  name?: string;
  instructions: Instruction[];
  line: number;
}

export interface Dockerfile {
  /** ARG instructions before the first FROM, with their defaults. */
  globalArgs: Record<string, string | undefined>;
  stages: Stage[];
}

/**
 * A Dockerfile parser for static checks: comments, parser directives, line continuations and
 * stages. Heredocs are rejected rather than misread.
 */
export function parseDockerfile(source: string): Dockerfile {
  const lines = source.split(/\r?\n/);
  const escape = escapeCharacter(lines);
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comment and empty lines are dropped, also inside a continuation (as Docker does).
    if (trimmed.startsWith('#') || trimmed === '') return;
    const continues = trimmed.endsWith(escape);
    const text = continues ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { text: `${pending.text} ${text}`.trim(), line: pending.line } : { text, line: index + 1 };
    if (continues) return;
    const match = /^(\S+)\s*(.*)$/.exec(pending.text);
    if (match) {
      if (/<<-?\s*["']?\w+/.test(match[2]) && ['RUN', 'COPY'].includes(match[1].toUpperCase())) {
        throw new Error(`line ${pending.line}: heredocs are not supported by the test parser`);
      }
      instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: pending.line });
    }
    pending = undefined;
  });

  const globalArgs: Record<string, string | undefined> = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$/i.exec(instruction.args);
      if (!match) throw new Error(`line ${instruction.line}: cannot read FROM ${instruction.args}`);
      stages.push({ image: substituteArgs(match[1], globalArgs), name: match[2], instructions: [], line: instruction.line });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`line ${instruction.line}: only ARG may come before the first FROM`);
      const [name, value] = instruction.args.split('=', 2);
      globalArgs[name.trim()] = value?.trim().replace(/^["']|["']$/g, '');
    } else {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

/** Parser directives (`# escape=...`) only count before the first other line. */
function escapeCharacter(lines: string[]): string {
  for (const line of lines) {
    const directive = /^#\s*(\w+)\s*=\s*(\S+)\s*$/.exec(line);
    if (!directive) break;
    if (directive[1].toLowerCase() === 'escape') return directive[2];
  }
  return '\\';
}

export const readDockerfile = (file: string) => parseDockerfile(readFileSync(file, 'utf8'));

function substituteArgs(text: string, args: Record<string, string | undefined>): string {
  return text.replace(/\$\{(\w+)(?::?-([^}]*))?\}|\$(\w+)/g, (whole, braced: string, fallback: string | undefined, bare: string) => {
    const value = args[braced ?? bare];
    return value !== undefined && value !== '' ? value : (fallback ?? whole);
  });
}

/** The flags (`--from=build`) and the remaining words of a COPY/ADD-like instruction. */
export function splitFlags(args: string): { flags: Record<string, string>; words: string[] } {
  const flags: Record<string, string> = {};
  const words: string[] = [];
  if (args.startsWith('[')) return { flags, words: JSON.parse(args) as string[] };
  for (const word of args.split(/\s+/).filter(Boolean)) {
    const flag = /^--([\w-]+)(?:=(.*))?$/.exec(word);
    if (flag && words.length === 0) flags[flag[1]] = flag[2] ?? 'true';
    else words.push(word);
  }
  return { flags, words };
}

/** An exec-form (JSON array) argument list, or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(args);
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
}

/** `ENV A=1 B=2` (and the legacy `ENV A 1`) as a map. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of stage.instructions.filter((candidate) => candidate.keyword === 'ENV')) {
    if (!instruction.args.includes('=')) {
      const [name, ...rest] = instruction.args.split(/\s+/);
      env[name] = rest.join(' ');
      continue;
    }
    for (const match of instruction.args.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|'[^']*'|\S+)/g)) {
      env[match[1]] = match[2].replace(/^["']|["']$/g, '');
    }
  }
  return env;
}

/**
 * .dockerignore semantics (moby/patternmatcher): patterns are matched against the path and each
 * of its parent folders, `**` spans folders, `!` re-includes, and the last matching line wins.
 */
export function dockerignoreMatcher(source: string): (path: string) => boolean {
  const rules = source
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = (negated ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      const expression = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => {
          if (part === '**/') return '(?:.*/)?';
          if (part === '**') return '.*';
          if (part === '*') return '[^/]*';
          if (part === '?') return '[^/]';
          return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
        })
        .join('');
      return { negated, regex: new RegExp(`^${expression}$`) };
    });
  return (path: string) => {
    const segments = path.replace(/^\.?\/+/, '').split('/');
    const candidates = segments.map((_, index) => segments.slice(0, index + 1).join('/'));
    let ignored = false;
    for (const rule of rules) {
      if (candidates.some((candidate) => rule.regex.test(candidate))) ignored = !rule.negated;
    }
    return ignored;
  };
}
