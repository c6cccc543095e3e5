import 'reflect-metadata';
import { IngestionModule } from '@ringfence/service-ingestion';
import { main } from '@ringfence/service-runtime';

main({ serviceName: 'ingestion', modules: [IngestionModule], https: false });
