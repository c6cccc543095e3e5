export * from './labelling.module';
