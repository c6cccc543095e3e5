export { DEFAULT_SIMULATION_OPTIONS, type SimulationOptions, TrafficSimulation, simulationOptions } from './traffic-simulation';
export { FRAUD_KINDS, type FraudKind, type TrafficRecord, type TruthRecord } from './traffic-record';
export { CLIENT_EVENTS_PATH } from './client-sdk/client-sdk-traffic';
export type { WorldStats as SimulationStats } from './world';
export { type CardCompromise, CardPaymentsSimulation, type CardPaymentTruth, type CardPaymentsStats } from './card-payments/card-payments-simulation';
export { CARD_FRAUD_PATTERNS, type CardFraudPattern, type CardPaymentsOptions, DEFAULT_CARD_FRAUD_MIX, DEFAULT_CARD_PAYMENTS_OPTIONS, cardPaymentsOptions } from './card-payments/card-payments-options';
export {
  CARD_COMPROMISE_DAYS,
  LARGE_AMOUNT_THRESHOLD,
  STOLEN_CARD_AMOUNT_FACTOR,
  STOLEN_CARD_FRAUD_SHARE,
  TERMINAL_COMPROMISE_DAYS,
} from './card-payments/card-fraud-plan';
export { GRID_SIZE, PAYING_RADIUS } from './card-payments/card-world';
