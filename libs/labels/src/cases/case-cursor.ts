import { CASE_ORDERS, type CaseOrder, MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';
import type { CaseRecord } from './case';

/**
 * Where a page of cases ended, in its order: the last case's sort value and id. The next page
 * starts strictly after it (keyset), so a case closed or claimed meanwhile only drops out of the
 * list (no other case shifts) and no page is empty while cases remain after it. `age` never
 * moves a case; in `recent`, `score` and `amount` a decision joining a case raises its key (they
 * only grow), so a case not reached yet can jump ahead of the cursor and be missed by this walk
 * (a new walk from the first page shows it); a case already listed is not listed again.
 */
export interface CasePosition {
  order: CaseOrder;
  value: number;
  caseId: string;
}

/** A case without an amount sorts after every amount (amounts are never negative). */
export const NO_AMOUNT = -1;

/** The value a case sorts by in an order: `age` oldest first, the others highest/newest first. */
export function sortValueOf(record: CaseRecord, order: CaseOrder): number {
  switch (order) {
    case 'age':
      return record.openedAt;
    case 'recent':
      return record.lastDecisionAt;
    case 'score':
      return record.maxScore;
    case 'amount':
      return record.totalAmount?.amount ?? NO_AMOUNT;
  }
}

export function positionAfter(record: CaseRecord, order: CaseOrder): CasePosition {
  return { order, value: sortValueOf(record, order), caseId: record.caseId };
}

/** The opaque `nextCursor`: clients pass it back as answered. */
export function encodeCaseCursor(position: CasePosition): string {
  return Buffer.from(JSON.stringify([position.order, position.value, position.caseId]), 'utf8').toString('base64url');
}

/** The position a cursor names; null for anything this service did not make, or made for another order. */
export function decodeCaseCursor(cursor: string, order: CaseOrder): CasePosition | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return null;
  const [cursorOrder, value, caseId] = decoded as unknown[];
  if (cursorOrder !== order || !(CASE_ORDERS as readonly unknown[]).includes(cursorOrder)) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (typeof caseId !== 'string' || caseId.length === 0 || caseId.length > MAX_IDENTIFIER_LENGTH) return null;
  return { order, value, caseId };
}
