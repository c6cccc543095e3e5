import 'reflect-metadata';
import { LookupCredentialsStoreModule, LookupModule } from '@ringfence/service-lookup';
import { main } from '@ringfence/service-runtime';

// The store's internal routes only here: the embedded app checks in process.
main({ serviceName: 'lookup', modules: [LookupModule, LookupCredentialsStoreModule], https: false });
