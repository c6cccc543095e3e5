import ipaddr from 'ipaddr.js';
import { type ValidationArguments, type ValidationOptions, registerDecorator } from 'class-validator';

/** The entries of a comma list of CIDR ranges (`10.0.0.0/8, fd00::/8`); none for an empty or absent value. */
export function cidrListEntries(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The first entry of the list that is not a CIDR range (`address/prefix`), or null. */
export function invalidCidrEntry(value: string): string | null {
  for (const entry of cidrListEntries(value)) {
    try {
      ipaddr.parseCIDR(entry);
    } catch {
      return entry;
    }
  }
  return null;
}

/** A comma list of CIDR ranges; the message names the setting and the first entry that is not one. */
export function IsCidrList(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isCidrList',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: {
        message: ({ property, value }: ValidationArguments) =>
          `${property} must be a comma list of CIDR ranges such as 10.0.0.0/8 or fd00::/8 (${JSON.stringify(typeof value === 'string' ? invalidCidrEntry(value) : value)} is not one)`,
        ...options,
      },
      validator: { validate: (value: unknown) => typeof value === 'string' && invalidCidrEntry(value) === null },
    });
  };
}
