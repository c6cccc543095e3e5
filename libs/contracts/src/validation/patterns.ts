/** Section 2.1 of the specification: the pattern every `eventType` must match. */
export const EVENT_TYPE_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-_]*$/;
export const MCC_PATTERN = /^[0-9]{4}$/;
export const CURRENCY_PATTERN = /^[a-zA-Z]{3}$/;
export const SHA256_HEX_PATTERN = /^[0-9a-fA-F]{64}$/;
/** Upper bound for string identifiers (customerId, deviceId, …) per section 8. */
export const MAX_IDENTIFIER_LENGTH = 300;
