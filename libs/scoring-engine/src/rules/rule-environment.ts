import { Environment } from '@marcbachmann/cel-js';
import { boundedPayload } from './bounded-payload';
import { LINEAR_MATCHES, boundsProblems, useLinearMatches } from './expression-bounds';
import { linearMatches } from './linear-regex';
import { CONTEXT_VARIABLES, type ContextFieldDeclaration, type ContextValue, LOOKUP_FIELDS, NETWORK_FIELDS, type RuleInputs } from './rule-context';

/** Bounds on what one expression may be, checked when it is parsed. */
const LIMITS = { maxAstNodes: 500, maxDepth: 32, maxListElements: 200, maxMapEntries: 200, maxCallArguments: 16 };

/** A problem with an expression: the engine's message and the 0-based offset it points at. */
export interface ExpressionError {
  message: string;
  position: number | null;
}

export type ExpressionCheck = { valid: true; errors: [] } | { valid: false; errors: ExpressionError[] };

/** An expression that type-checked: call it with a context from `RuleEnvironment.context`. */
export type CompiledExpression = (context: CelContext) => unknown;

/** The context in CEL's form: ints as BigInt, absent values left out. */
export type CelContext = Record<string, unknown>;

/**
 * The CEL environment rules are checked and run in, declared from the context's field tables
 * and the feature catalogue's declarations, so what the type-check accepts is exactly what the
 * checkpoint provides.
 */
export class RuleEnvironment {
  private readonly environment: Environment;
  private readonly featureTypes: ReadonlyMap<string, ContextFieldDeclaration['type']>;

  constructor(readonly features: readonly ContextFieldDeclaration[]) {
    this.featureTypes = new Map(features.map((feature) => [feature.name, feature.type]));
    this.environment = new Environment({ limits: LIMITS })
      .registerType('Features', { fields: fieldTypes(features) })
      .registerType('Network', { fields: fieldTypes(NETWORK_FIELDS) })
      .registerType('Lookup', { fields: fieldTypes(LOOKUP_FIELDS) })
      // ADR-0016: `matches` on a linear-time engine; expression-bounds.ts points each call here.
      .registerFunction(`string.${LINEAR_MATCHES}(string): bool`, linearMatches);
    for (const variable of CONTEXT_VARIABLES) this.environment.registerVariable(variable.name, variable.celType);
  }

  /**
   * Parses and type-checks; valid only when the expression is a boolean over the declared
   * context and within the bounds of expression-bounds.ts.
   */
  check(expression: string): ExpressionCheck {
    let result: ReturnType<Environment['check']>;
    try {
      result = this.environment.check(expression);
    } catch (error) {
      return { valid: false, errors: [expressionError(error)] };
    }
    if (!result.valid) return { valid: false, errors: [expressionError(result.error)] };
    if (result.type !== 'bool') {
      return { valid: false, errors: [{ message: `the expression must be a boolean (bool), not ${String(result.type)}`, position: 0 }] };
    }
    const problems = boundsProblems(this.environment.parse(expression).ast);
    return problems.length === 0 ? { valid: true, errors: [] } : { valid: false, errors: problems };
  }

  /**
   * Compiles an expression that `check` accepted; throws on one it did not. Its `matches` calls
   * run on the linear engine, and it is type-checked now, not at its first evaluation (which
   * would otherwise pay for it within its time budget).
   */
  compile(expression: string): CompiledExpression {
    const check = this.check(expression);
    if (!check.valid) throw new Error(`invalid rule expression: ${check.errors[0].message}`);
    const parsed = this.environment.parse(expression);
    useLinearMatches(parsed.ast);
    const typed = parsed.check();
    if (!typed.valid) throw new Error(`invalid rule expression: ${expressionError(typed.error).message}`);
    return parsed as CompiledExpression;
  }

  /**
   * The CEL form of the inputs: ints of the declared int fields as BigInt, absent (null) values
   * left out so that `has()` tells them apart and reading one fails the rule, not the request.
   */
  context(inputs: RuleInputs): CelContext {
    return {
      payload: boundedPayload(inputs.payload),
      features: celFields(inputs.features, this.featureTypes),
      // Without the graph's answer the network's fields are absent (has() tells), not the network.
      network: inputs.network === null ? {} : celFields(inputs.network, NETWORK_TYPES),
      labels: inputs.labels,
      lookup: celFields(inputs.lookup, LOOKUP_TYPES),
      score: BigInt(Math.round(inputs.score)),
    };
  }
}

const NETWORK_TYPES = new Map(NETWORK_FIELDS.map((field) => [field.name, field.type]));
const LOOKUP_TYPES = new Map(LOOKUP_FIELDS.map((field) => [field.name, field.type]));

function fieldTypes(fields: readonly ContextFieldDeclaration[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field.name, field.type]));
}

/** Only declared fields go in: an undeclared one could not pass the type-check anyway. */
function celFields(values: Record<string, ContextValue>, types: ReadonlyMap<string, ContextFieldDeclaration['type']>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, type] of types) {
    const value = values[name];
    if (value === null || value === undefined) continue;
    if (type === 'int') {
      if (typeof value === 'number' && Number.isFinite(value)) fields[name] = BigInt(Math.trunc(value));
    } else if (type === 'double') {
      if (typeof value === 'number') fields[name] = value;
    } else if (typeof value === (type === 'bool' ? 'boolean' : 'string')) {
      fields[name] = value;
    }
  }
  return fields;
}

/** A 400 message naming `field` for an expression `check` refused: the engine's message and the position. */
export function expressionProblem(field: string, error: ExpressionError): string {
  return `${field}: ${error.message}${error.position === null ? '' : ` (at position ${error.position})`}`;
}

/** The engine's errors carry a `range` of offsets into the expression; the message's first line is the summary. */
function expressionError(error: unknown): ExpressionError {
  const { message, range } = (error ?? {}) as { message?: unknown; range?: { start?: unknown } };
  const position = typeof range?.start === 'number' ? range.start : null;
  const text = typeof message === 'string' ? message.split('\n')[0] : String(error);
  return { message: text, position };
}
