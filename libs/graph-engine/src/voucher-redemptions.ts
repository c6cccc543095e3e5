interface RedemptionState {
  success: boolean;
  atMs: number;
}

/**
 * The voucher redemptions of one tenant, for the voucher check (ADR-0004): per voucher
 * code, per customer, one entry per redemption time, so a replayed payload counts once and a
 * later payload about the same redemption (say `success` turned false) replaces it.
 */
export class VoucherRedemptions {
  private readonly byCode = new Map<string, Map<string, Map<number, RedemptionState>>>();

  record(customerId: string, voucherCode: string, redemptionTimeMs: number, success: boolean, atMs: number): void {
    let byCustomer = this.byCode.get(voucherCode);
    if (byCustomer === undefined) {
      byCustomer = new Map();
      this.byCode.set(voucherCode, byCustomer);
    }
    let byTime = byCustomer.get(customerId);
    if (byTime === undefined) {
      byTime = new Map();
      byCustomer.set(customerId, byTime);
    }
    const known = byTime.get(redemptionTimeMs);
    if (known === undefined || atMs >= known.atMs) byTime.set(redemptionTimeMs, { success, atMs });
  }

  /** Successful redemptions of `voucherCode` by any of `customerIds`. */
  successfulUses(voucherCode: string, customerIds: Iterable<string>): number {
    const byCustomer = this.byCode.get(voucherCode);
    if (byCustomer === undefined) return 0;
    let uses = 0;
    for (const customerId of customerIds) {
      const byTime = byCustomer.get(customerId);
      if (byTime === undefined) continue;
      for (const state of byTime.values()) if (state.success) uses += 1;
    }
    return uses;
  }
}
