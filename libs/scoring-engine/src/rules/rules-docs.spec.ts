import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withGeneratedSection } from '../test-support/scoring-docs';
import { RULE_CHECKPOINTS } from '@ringfence/contracts';
import { RuleEnvironments } from './rule-environments';
import { CONTEXT_VARIABLES, type ContextFieldDeclaration, LOOKUP_FIELDS, NETWORK_FIELDS } from './rule-context';

/**
 * docs/rules.md's reference of the rule context is generated from the tables the type-check and
 * the checkpoint's context are built from; `npm run docs:features` rewrites it.
 */
const PATH = join(__dirname, '..', '..', '..', '..', 'docs', 'rules.md');
const UPDATE = process.env.UPDATE_FEATURE_DOCS === '1';

const escape = (text: string) => text.replace(/\|/g, '\\|');
const fieldTable = (prefix: string, fields: readonly ContextFieldDeclaration[]) =>
  ['| name | CEL type | meaning |', '|---|---|---|', ...fields.map((field) => `| \`${prefix}.${field.name}\` | \`${field.type}\` | ${escape(field.description)} |`)].join('\n');

function contextReference(): string {
  return [
    '| name | CEL type | meaning |',
    '|---|---|---|',
    ...CONTEXT_VARIABLES.map((variable) => `| \`${variable.name}\` | \`${variable.celType}\` | ${escape(variable.description)} |`),
    '',
    '`network`:',
    '',
    fieldTable('network', NETWORK_FIELDS),
    '',
    '`lookup`:',
    '',
    fieldTable('lookup', LOOKUP_FIELDS),
  ].join('\n');
}

describe('docs/rules.md', () => {
  it('lists the rule context as the code declares it (npm run docs:features rewrites it)', () => {
    const document = readFileSync(PATH, 'utf8');
    const expected = withGeneratedSection(document, 'context', contextReference());
    if (UPDATE) writeFileSync(PATH, expected);
    expect(readFileSync(PATH, 'utf8')).toBe(expected);
  });

  it('shows only expressions that type-check at some checkpoint', () => {
    const environments = new RuleEnvironments();
    const examples = [...readFileSync(PATH, 'utf8').matchAll(/```cel\n([\s\S]*?)```/g)].flatMap((match) => match[1].trim().split('\n'));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect({ example, valid: RULE_CHECKPOINTS.some((checkpoint) => environments.of(checkpoint).check(example).valid) }).toEqual({ example, valid: true });
    }
  });
});
