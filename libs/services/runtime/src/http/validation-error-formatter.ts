import type { ValidationError } from 'class-validator';

// class-validator's default texts start with the property name; the path is printed instead.
function ruleText(error: ValidationError, rule: string, text: string): string {
  if (error.value === undefined && rule !== 'requiredUnless' && rule !== 'mutuallyExclusiveWith') return 'is required';
  if (rule === 'nestedValidation') return 'must be an object';
  if (rule === 'whitelistValidation') return 'is not allowed';
  return text.startsWith(`${error.property} `) ? text.slice(error.property.length + 1) : text;
}

/**
 * Every failing field of a request as `path: rule`, e.g. `transaction.mcc: must match
 * ^[0-9]{4}$` (ADR-0001), one entry per field, in payload order.
 */
export function formatValidationErrors(errors: ValidationError[], parentPath = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    const rules = Object.entries(error.constraints ?? {});
    if (rules.length > 0) {
      const texts = [...new Set(rules.map(([rule, text]) => ruleText(error, rule, text)))];
      messages.push(`${path}: ${texts.includes('is required') ? 'is required' : texts.join(', ')}`);
    }
    if (error.children?.length) messages.push(...formatValidationErrors(error.children, path));
  }
  return messages;
}
