import 'reflect-metadata';
import { LookupModule } from '@ringfence/service-lookup';
import { main } from '@ringfence/service-runtime';

main({ serviceName: 'lookup', modules: [LookupModule], https: false });
