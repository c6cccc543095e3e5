import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';
import { assertWithinRuleBudget } from './rule-budget';

/**
 * `matches` for rules on a linear-time engine (ADR-0016): RE2 through `re2js`, never
 * JavaScript's backtracking RegExp, so `'aaaa…!'.matches('^(a+)+$')` costs microseconds. RE2's
 * syntax is the one CEL specifies; it has no backreferences nor lookaround.
 *
 * Linear is in the input times the compiled program: an NFA step visits every instruction, and
 * a program of thousands of instructions over a long input still costs seconds (measured:
 * `(a|aa){1000}!`, 6003 instructions, over 4 KiB took 1.2 s). So both are bounded, and their
 * product caps one call at about a million instruction steps (about 50 ms measured in the
 * worst case, microseconds for ordinary patterns, which the lazy DFA takes).
 */
export const REGEX_LIMITS = Object.freeze({
  /** Characters of a pattern. */
  maxPatternLength: 1_000,
  /** Instructions of the compiled program (`[a-z]{100}` is about 100; an e-mail pattern about 60). */
  maxProgramInstructions: 250,
  /** UTF-16 code units of the string matched. */
  maxInputLength: 4_096,
});

/** Compiled patterns, shared by every rule of the process; a pattern read from a payload may be new at each call. */
const compiledPatterns = new LRUCache<string, RE2JS>({ max: 1_000 });

/** A pattern RE2 refuses, or one past the limits: the reason, in the words a rule author reads. */
export class RegexRefused extends Error {}

/** The pattern compiled for the linear engine; throws `RegexRefused` with the reason when it cannot be. */
export function compileLinearPattern(pattern: string): RE2JS {
  const cached = compiledPatterns.get(pattern);
  if (cached !== undefined) return cached;
  if (pattern.length > REGEX_LIMITS.maxPatternLength) {
    throw new RegexRefused(`the pattern of matches() is longer than ${REGEX_LIMITS.maxPatternLength} characters`);
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    // RE2 names the construct it refuses: "invalid or unsupported Perl syntax: `(?=`".
    throw new RegexRefused(`matches() takes RE2 syntax (no backreferences nor lookaround): ${error instanceof Error ? error.message : String(error)}`);
  }
  const instructions = Number(compiled.re2().numberOfInstructions());
  if (instructions > REGEX_LIMITS.maxProgramInstructions) {
    throw new RegexRefused(`the pattern of matches() compiles to ${instructions} instructions, more than ${REGEX_LIMITS.maxProgramInstructions}: shorten its repetitions`);
  }
  compiledPatterns.set(pattern, compiled);
  return compiled;
}

/** CEL's `string.matches(string)`: true when the pattern matches anywhere in the string, as CEL specifies. */
export function linearMatches(input: string, pattern: string): boolean {
  assertWithinRuleBudget();
  if (input.length > REGEX_LIMITS.maxInputLength) {
    throw new RegexRefused(`matches() takes strings of at most ${REGEX_LIMITS.maxInputLength} characters; this one has ${input.length}`);
  }
  return compileLinearPattern(pattern).test(input);
}
