import 'reflect-metadata';
import { ScoringModule } from '@ringfence/service-scoring';
import { main } from '@ringfence/service-runtime';

// Scoring asks the graph for network features, so it consumes replies.
main({ serviceName: 'scoring', modules: [ScoringModule], https: false, sendsRequests: true });
