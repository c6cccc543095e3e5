import type { CurrentLabelMessage, CustomerTagsResponseDto, LabelCategory } from '@ringfence/contracts';

/**
 * A customer's tags as GET /v2/tag/customer/{customerId} answers them, from what its owners
 * keep: the stored customer's `tags` map (ingestion's entity document; a removed tag is stored
 * `false`, and every tags route writes there) and its labels (labelling).
 */
export function customerTagsView(customerId: string, storedTags: unknown, labels: Partial<Record<LabelCategory, CurrentLabelMessage>>): CustomerTagsResponseDto {
  const tagNames = Object.entries(typeof storedTags === 'object' && storedTags !== null ? storedTags : {})
    .filter(([, value]) => value === true)
    .map(([name]) => name)
    .sort();
  // fromEntries defines own properties: a tag named "__proto__" stays a tag.
  const tags = Object.fromEntries(tagNames.map((name): [string, boolean] => [name, true]));
  return { customerId, tagNames, tags, label: labels.PAYMENT_FRAUD?.review ?? 'UNREVIEWED' };
}
