import type { SeededRandom } from '../seeded-random';

/** The side of the square grid customers and terminals are placed on, and how far a customer goes to pay. */
export const GRID_SIZE = 100;
export const PAYING_RADIUS = 5;

const HOUR_SECONDS = 3600;

export interface CardCustomer {
  index: number;
  customerId: string;
  /** The customer's one card. */
  instrumentId: string;
  lastFour: string;
  x: number;
  y: number;
  /** Amounts are normal around this mean with this spread (major units). */
  meanAmount: number;
  amountSpread: number;
  /** Mean payments a day (Poisson). */
  dailyRate: number;
  /** Payment times in the day are normal around this hour with this spread (seconds after midnight). */
  usualSecondOfDay: number;
  secondOfDaySpread: number;
  /** Indexes of the terminals within the paying radius; a customer with none makes no payment. */
  terminals: number[];
}

export interface Terminal {
  index: number;
  terminalId: string;
  x: number;
  y: number;
}

/**
 * The customers and terminals, as the payment-fraud handbooks' simulator places them: uniformly on
 * a 100 × 100 grid; a customer's mean amount uniform from 5 to 100 with a spread of half of it, its
 * daily rate uniform from 0 to twice the mean asked for; it pays at the terminals within radius 5.
 * Added here: each customer's own time of day (the handbook draws every time around noon).
 */
/** The customers and terminals placed on the grid. */
export interface CardWorld {
  customers: CardCustomer[];
  terminals: Terminal[];
}

export function placeCardWorld(random: SeededRandom, idTag: string, customers: number, terminals: number, paymentsPerDay: number): CardWorld {
  const terminalRandom = random.derive('terminals');
  const placedTerminals: Terminal[] = [];
  for (let index = 0; index < terminals; index += 1) {
    placedTerminals.push({ index, terminalId: `term-${idTag}${index.toString(36).padStart(5, '0')}`, x: terminalRandom.between(0, GRID_SIZE), y: terminalRandom.between(0, GRID_SIZE) });
  }
  const nearby = new TerminalGrid(placedTerminals);
  const customerRandom = random.derive('customers');
  const placedCustomers: CardCustomer[] = [];
  for (let index = 0; index < customers; index += 1) {
    const x = customerRandom.between(0, GRID_SIZE);
    const y = customerRandom.between(0, GRID_SIZE);
    const meanAmount = customerRandom.between(5, 100);
    const usualHour = Math.min(22, Math.max(6, 13 + 2.5 * customerRandom.normal()));
    placedCustomers.push({
      index,
      customerId: `cus-${idTag}${index.toString(36).padStart(5, '0')}`,
      instrumentId: `card-${idTag}${index.toString(36).padStart(5, '0')}`,
      lastFour: customerRandom.digits(4),
      x,
      y,
      meanAmount,
      amountSpread: meanAmount / 2,
      dailyRate: customerRandom.between(0, 2 * paymentsPerDay),
      usualSecondOfDay: usualHour * HOUR_SECONDS,
      secondOfDaySpread: customerRandom.between(1, 4) * HOUR_SECONDS,
      terminals: nearby.within(x, y, PAYING_RADIUS),
    });
  }
  return { customers: placedCustomers, terminals: placedTerminals };
}

/** Terminals bucketed in cells one radius wide, so finding those near a customer looks at nine cells, not every terminal. */
class TerminalGrid {
  private readonly cells = new Map<string, Terminal[]>();

  constructor(terminals: readonly Terminal[]) {
    for (const terminal of terminals) {
      const key = this.key(Math.floor(terminal.x / PAYING_RADIUS), Math.floor(terminal.y / PAYING_RADIUS));
      let cell = this.cells.get(key);
      if (!cell) this.cells.set(key, (cell = []));
      cell.push(terminal);
    }
  }

  /** Indexes of the terminals within `radius` (at most PAYING_RADIUS) of the point, ascending. */
  within(x: number, y: number, radius: number): number[] {
    const found: number[] = [];
    const column = Math.floor(x / PAYING_RADIUS);
    const row = Math.floor(y / PAYING_RADIUS);
    for (let dx = -1; dx <= 1; dx += 1) {
      for (let dy = -1; dy <= 1; dy += 1) {
        for (const terminal of this.cells.get(this.key(column + dx, row + dy)) ?? []) {
          if ((terminal.x - x) ** 2 + (terminal.y - y) ** 2 <= radius ** 2) found.push(terminal.index);
        }
      }
    }
    return found.sort((left, right) => left - right);
  }

  private key(column: number, row: number): string {
    return `${column}:${row}`;
  }
}
