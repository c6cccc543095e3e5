import 'reflect-metadata';
import { main } from '@ringfence/service-runtime';
import { standaloneService } from './standalone.service';

main(standaloneService);
