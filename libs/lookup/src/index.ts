export * from './indicator';
export * from './country-codes';
export * from './normalise-indicator';
export * from './lookup-indicator.repository';
export * from './lookup-submission';
export * from './indicator-lookup';
export * from './lookup-indicators';
export * from './checkpoint-lookup';
