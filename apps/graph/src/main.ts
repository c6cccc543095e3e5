import 'reflect-metadata';
import { GraphModule } from '@ringfence/service-graph';
import { main } from '@ringfence/service-runtime';

main({ serviceName: 'graph', modules: [GraphModule], https: false });
