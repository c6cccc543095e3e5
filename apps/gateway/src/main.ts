import 'reflect-metadata';
import { GatewayModule, serveOpenApi } from '@ringfence/service-gateway';
import { main } from '@ringfence/service-runtime';

main({ serviceName: 'gateway', modules: [GatewayModule], https: true, sendsRequests: true, configure: serveOpenApi });
