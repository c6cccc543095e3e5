export * from './graph.module';
