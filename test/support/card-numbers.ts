/**
 * A Luhn-valid 16-digit card number no other byte of a data directory, log or topic could hold
 * by chance (the clock's digits and random ones), for tests that search for it.
 */
export function uniqueCardNumber(): string {
  const body = `4${String(Date.now()).slice(-9)}${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
  for (let check = 0; check < 10; check += 1) {
    const digits = `${body}${check}`;
    if (luhnSum(digits) % 10 === 0) return digits;
  }
  throw new Error('unreachable: one check digit of ten always fits');
}

function luhnSum(digits: string): number {
  return [...digits].reverse().reduce((total, char, position) => {
    const digit = Number(char) * (position % 2 === 1 ? 2 : 1);
    return total + (digit > 9 ? digit - 9 : digit);
  }, 0);
}
