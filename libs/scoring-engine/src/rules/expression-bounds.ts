import type { ASTNode } from '@marcbachmann/cel-js';
import { RegexRefused, compileLinearPattern } from './linear-regex';
import type { ExpressionError } from './rule-environment';

/**
 * What an expression may be beyond what the engine's parse limits bound (ADR-0016: every
 * expression's cost bounded by construction). Read from the parsed expression's syntax tree,
 * which `@marcbachmann/cel-js` exposes (`parse(expression).ast`).
 *
 * - A comprehension (`all`, `exists`, `exists_one`, `map`, `filter`) may not run inside another
 *   one's body: each multiplies the other's iterations, and three levels over a thousand-element
 *   list measured 65 s.
 * - `cel.bind` is refused: nested bindings double a string at each level.
 * - A literal pattern of `matches` must be one the linear engine takes (linear-regex.ts); a
 *   pattern computed at run time is checked at run time (the rule fails).
 */

/** The CEL method whose standard implementation backtracks, and the name its linear replacement is registered under. */
export const MATCHES = 'matches';
export const LINEAR_MATCHES = 'matchesRe2';

const COMPREHENSIONS: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

type RcallNode = Extract<ASTNode, { op: 'rcall' }>;

/** The problems of an expression's tree that the type-check does not see; empty when it is within bounds. */
export function boundsProblems(ast: ASTNode): ExpressionError[] {
  const problems: ExpressionError[] = [];
  visit(ast, 0, (node, comprehensionDepth) => {
    if (node.op !== 'rcall') return;
    const [method, receiver, args] = node.args;
    if (COMPREHENSIONS.has(method) && comprehensionDepth > 0) {
      problems.push({ message: `${method}() inside another comprehension's body is not allowed in rules: nested comprehensions multiply their iterations`, position: node.start });
    } else if (method === 'bind' && receiver.op === 'id' && receiver.args === 'cel') {
      problems.push({ message: 'cel.bind() is not available to rules: nested bindings can double a value at each level', position: node.start });
    } else if (method === MATCHES && args.length === 1 && args[0].op === 'value' && typeof args[0].args === 'string') {
      const refusal = patternRefusal(args[0].args);
      if (refusal !== null) problems.push({ message: refusal, position: args[0].start });
    }
  });
  return problems;
}

/**
 * Points every `string.matches(string)` call of a parsed expression at the linear engine's
 * function. cel-js cannot replace a standard overload (a second `string.matches` is refused as
 * overlapping), so the call is renamed in the tree before its type-check binds it; the tree's
 * `rcall` operands are a mutable tuple in the engine's published types. Renamed after the
 * expression was checked under its own names, so the author's errors speak of `matches`.
 */
export function useLinearMatches(ast: ASTNode): void {
  visit(ast, 0, (node) => {
    if (node.op === 'rcall' && node.args[0] === MATCHES && node.args[2].length === 1) (node as RcallNode).args[0] = LINEAR_MATCHES;
  });
}

function patternRefusal(pattern: string): string | null {
  try {
    compileLinearPattern(pattern);
    return null;
  } catch (error) {
    if (error instanceof RegexRefused) return error.message;
    throw error;
  }
}

/** Every node of the tree, with how many comprehension bodies enclose it. */
function visit(node: ASTNode, comprehensionDepth: number, onNode: (node: ASTNode, comprehensionDepth: number) => void): void {
  onNode(node, comprehensionDepth);
  if (node.op === 'rcall') {
    const [method, receiver, args] = node.args;
    visit(receiver, comprehensionDepth, onNode);
    // The receiver is evaluated once; the arguments of a comprehension (its variable, predicate, transform) at every element.
    const bodyDepth = COMPREHENSIONS.has(method) ? comprehensionDepth + 1 : comprehensionDepth;
    for (const argument of args) visit(argument, bodyDepth, onNode);
    return;
  }
  for (const child of childrenOf(node)) visit(child, comprehensionDepth, onNode);
}

function childrenOf(node: ASTNode): ASTNode[] {
  switch (node.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [node.args[0]];
    case 'call':
      return node.args[1];
    case 'rcall':
      return [node.args[1], ...node.args[2]];
    case 'map':
      return node.args.flat();
    case 'list':
      return node.args;
    case '!_':
    case '-_':
      return [node.args];
    case '?:':
    case '[]':
    case '[?]':
    case '&&':
    case '||':
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
    case 'in':
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return [...node.args];
  }
}
