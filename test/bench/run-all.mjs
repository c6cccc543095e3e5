// `npm run bench`: every benchmark in turn.
await import('./customer-checkpoint.bench.mjs');
