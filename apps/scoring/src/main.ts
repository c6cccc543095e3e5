import 'reflect-metadata';
import { ScoringModule } from '@ringfence/service-scoring';
import { main } from '@ringfence/service-runtime';

main({ serviceName: 'scoring', modules: [ScoringModule], https: false });
