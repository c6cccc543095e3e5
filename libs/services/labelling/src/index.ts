export * from './labelling.module';
export * from './callbacks/callbacks.module';
