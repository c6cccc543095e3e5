/**
 * The warning classes a recommendation can carry in `data.warnings[]`, each with a section of
 * the API documentation the server itself serves (so a warning's `help` always resolves).
 */
export const WARNING_CLASSES = [
  'customer-not-found',
  'supplier-not-found',
  'order-not-found',
  'transaction-not-found',
  'paymentmethod-not-found',
  'degraded',
] as const;
export type WarningClass = (typeof WARNING_CLASSES)[number];

/** Where a warning class is explained: a path on this server, relative so it works behind any host. */
export function warningHelpUrl(warningClass: WarningClass): string {
  return `/docs/api#warning-${warningClass}`;
}
