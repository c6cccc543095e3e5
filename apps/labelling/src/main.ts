import 'reflect-metadata';
import { LabellingModule } from '@ringfence/service-labelling';
import { main } from '@ringfence/service-runtime';

main({ serviceName: 'labelling', modules: [LabellingModule], https: false });
