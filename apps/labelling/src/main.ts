import 'reflect-metadata';
import { CallbacksModule, LabellingModule } from '@ringfence/service-labelling';
import { main } from '@ringfence/service-runtime';

// Sends requests: the review callbacks ask the gateway for their URL and signatures.
main({ serviceName: 'labelling', modules: [LabellingModule, CallbacksModule], https: false, sendsRequests: true });
