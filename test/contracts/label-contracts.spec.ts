import { CustomerLabelRequestDto, type LabelSubjectKind, SupplierLabelRequestDto } from '@ringfence/contracts';
import { resolveReview } from '@ringfence/labels';
import { type InputClass, validateInput } from '@ringfence/service-runtime';
import type { ContractFixture } from './fixture-loader';
import { describeFixtureExpectations } from './fixture-validation';

/**
 * Golden requests of the label routes (specification §4.13/§4.14, ADR-0008/ADR-0009), checked as
 * they are in production: the gateway's DTO validation first, then, for a body it accepts, the
 * labelling service's rules (category inference and fit, the POTENTIALLY_ switch, off by
 * default). `http-contracts.spec.ts` replays the same files through the HTTP stack.
 */
const ENDPOINTS: Record<string, { kind: LabelSubjectKind; body: InputClass<object> }> = {
  'label-customer': { kind: 'customer', body: CustomerLabelRequestDto },
  'label-supplier': { kind: 'supplier', body: SupplierLabelRequestDto },
};

async function problemsOf(slug: string, fixture: ContractFixture): Promise<string[]> {
  const { kind, body } = ENDPOINTS[slug]!;
  const validated = validateInput(body, fixture.body, 'body');
  if (!validated.ok) return validated.problems;
  try {
    resolveReview(kind, validated.value, {});
    return [];
  } catch (error) {
    return (error as Error).message.split('; ');
  }
}

describeFixtureExpectations('request contracts: label routes', Object.keys(ENDPOINTS), problemsOf);
