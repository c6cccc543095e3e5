import { Environment } from '@marcbachmann/cel-js';
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
      .registerType('Lookup', { fields: fieldTypes(LOOKUP_FIELDS) });
    for (const variable of CONTEXT_VARIABLES) this.environment.registerVariable(variable.name, variable.celType);
  }

  /** Parses and type-checks; valid only when the expression is a boolean over the declared context. */
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
    return { valid: true, errors: [] };
  }

  /** Compiles an expression that `check` accepted; throws on one it did not. */
  compile(expression: string): CompiledExpression {
    const check = this.check(expression);
    if (!check.valid) throw new Error(`invalid rule expression: ${check.errors[0].message}`);
    return this.environment.parse(expression) as CompiledExpression;
  }

  /**
   * The CEL form of the inputs: ints of the declared int fields as BigInt, absent (null) values
   * left out so that `has()` tells them apart and reading one fails the rule, not the request.
   */
  context(inputs: RuleInputs): CelContext {
    return {
      payload: inputs.payload,
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
