import 'reflect-metadata';
import { CallbacksModule, LabellingModule } from '@ringfence/service-labelling';
import { main } from '@ringfence/service-runtime';

main({ serviceName: 'labelling', modules: [LabellingModule, CallbacksModule], https: false });
