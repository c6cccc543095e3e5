import { grownSize, resized } from './adjacency-arena';

/** A merchant's customers other than the subject, and how many of them are fraudsters now. */
export interface MerchantFraud {
  customers: number;
  fraudCustomers: number;
  /** fraudCustomers / customers; 0 when the merchant has no other customer. */
  fraudRate: number;
}

interface MerchantTally {
  customers: Set<number>;
  fraudsters: number;
}

const NO_MERCHANT = 0;

/**
 * Which customers paid at each merchant (`transaction.mid`) of one tenant, and how many of them
 * are fraudsters as the graph knows now, for the merchant fraud rate of ADR-0012.
 *
 * Counting a merchant's fraudsters when asked would read every customer it ever had (a PSP's
 * merchant has hundreds of thousands) on each checkpoint, so the count is kept as it changes:
 * `add` counts a new customer who already is a fraudster, and `fraudsterChanged` (called by the
 * index whenever a customer becomes or stops being one) moves the count of each merchant the
 * customer paid at. A customer paid at one merchant in most accounts, so each keeps its first
 * merchant in a typed array and only the others in a map.
 */
export class MerchantCustomers {
  private readonly codes = new Map<string, number>();
  private readonly tallies: MerchantTally[] = [];
  /** Per customer node, its first merchant's code + 1 (`NO_MERCHANT` for none). */
  private firstMerchant = new Int32Array(1 << 10);
  /** Per customer node that paid at several merchants, the codes of the others. */
  private readonly otherMerchants = new Map<number, number[]>();

  /** Records that `customer` (a node id) paid at `merchantId`; `fraudster` is its state now. */
  add(merchantId: string, customer: number, fraudster: boolean): void {
    const code = this.codeOf(merchantId);
    const tally = this.tallies[code];
    if (tally.customers.has(customer)) return;
    tally.customers.add(customer);
    if (fraudster) tally.fraudsters += 1;
    if (customer >= this.firstMerchant.length) this.firstMerchant = resized(this.firstMerchant, grownSize(this.firstMerchant.length, customer + 1));
    if (this.firstMerchant[customer] === NO_MERCHANT) {
      this.firstMerchant[customer] = code + 1;
      return;
    }
    const others = this.otherMerchants.get(customer);
    if (others === undefined) this.otherMerchants.set(customer, [code]);
    else others.push(code);
  }

  /** A customer became (true) or stopped being (false) a fraudster. */
  fraudsterChanged(customer: number, fraudster: boolean): void {
    if (customer >= this.firstMerchant.length || this.firstMerchant[customer] === NO_MERCHANT) return;
    const change = fraudster ? 1 : -1;
    this.tallies[this.firstMerchant[customer] - 1].fraudsters += change;
    for (const code of this.otherMerchants.get(customer) ?? []) this.tallies[code].fraudsters += change;
  }

  /**
   * The merchant's customers and fraudsters without the subject (a node id, when the graph
   * knows it), whose own label must not make its merchant look risky to itself.
   */
  fraudOf(merchantId: string, subject: number | undefined, subjectIsFraudster: boolean): MerchantFraud {
    const code = this.codes.get(merchantId);
    if (code === undefined) return { customers: 0, fraudCustomers: 0, fraudRate: 0 };
    const tally = this.tallies[code];
    const own = subject !== undefined && tally.customers.has(subject);
    const customers = tally.customers.size - (own ? 1 : 0);
    const fraudCustomers = tally.fraudsters - (own && subjectIsFraudster ? 1 : 0);
    return { customers, fraudCustomers, fraudRate: customers === 0 ? 0 : fraudCustomers / customers };
  }

  /** Merchants known, for reports. */
  get merchantCount(): number {
    return this.tallies.length;
  }

  private codeOf(merchantId: string): number {
    const known = this.codes.get(merchantId);
    if (known !== undefined) return known;
    const code = this.tallies.length;
    this.codes.set(merchantId, code);
    this.tallies.push({ customers: new Set(), fraudsters: 0 });
    return code;
  }
}
