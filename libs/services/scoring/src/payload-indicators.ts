import { type PayloadFacts, namedText } from '@ringfence/contracts';
import { type CheckpointIndicatorEvidence, type KnownIndicatorQuery, canonicalIpAddress, knownIndicatorRefs, normaliseEmail, normaliseTelephone } from '@ringfence/lookup';

type Fields = Record<string, unknown>;

function telephoneOf(subject: Fields): string[] {
  const number = namedText(subject.telephone);
  if (!number) return [];
  try {
    return [normaliseTelephone(number, namedText(subject.telephoneCountry))];
  } catch {
    // A country code the lookup cannot read: the number cannot be matched, which is no reason to fail the checkpoint.
    return [];
  }
}

/**
 * The known-fraud indicators a checkpoint can check, normalised as the lookup stores them: the
 * subject's email and telephone (of its record, read with the payloads' rule for blank strings),
 * the device's IP address and the payment instruments the payload names.
 */
export function indicatorsOfFacts(subject: Fields, facts: PayloadFacts): KnownIndicatorQuery {
  const email = namedText(subject.email);
  const ip = facts.device.ipAddress;
  const canonicalIp = ip ? canonicalIpAddress(ip) : null;
  const methods = facts.paymentMethod ? [facts.paymentMethod, ...facts.paymentMethods] : facts.paymentMethods;
  return {
    emails: email ? [normaliseEmail(email)] : [],
    phones: telephoneOf(subject),
    ips: canonicalIp ? [canonicalIp] : [],
    instrumentIds: methods.map((method) => method.instrumentId).filter((id) => id !== undefined),
  };
}

const refKey = ({ kind, value }: { kind: string; value: string }): string => `${kind}\u0000${value}`;

/** The values of `all` that `asked` does not name (what a second question must add). */
export function indicatorsNotIn(all: KnownIndicatorQuery, asked: KnownIndicatorQuery): KnownIndicatorQuery {
  const askedKeys = new Set(knownIndicatorRefs(asked).map(refKey));
  const beyond = (kind: string, values: readonly string[] | undefined) => (values ?? []).filter((value) => !askedKeys.has(refKey({ kind, value })));
  return {
    emails: beyond('email', all.emails),
    phones: beyond('telephone', all.phones),
    ips: beyond('ipAddress', all.ips),
    instrumentIds: beyond('instrumentId', all.instrumentIds),
  };
}

/** The evidence of the values `values` names, in the order given. */
export function evidenceOf(evidence: readonly CheckpointIndicatorEvidence[], values: KnownIndicatorQuery): CheckpointIndicatorEvidence[] {
  const wanted = new Set(knownIndicatorRefs(values).map(refKey));
  return evidence.filter((item) => wanted.has(refKey(item)));
}
