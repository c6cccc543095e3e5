export { DEFAULT_SIMULATION_OPTIONS, type SimulationOptions, TrafficSimulation, simulationOptions } from './traffic-simulation';
export { FRAUD_KINDS, type FraudKind, type TrafficRecord, type TruthRecord } from './traffic-record';
export type { WorldStats as SimulationStats } from './world';
