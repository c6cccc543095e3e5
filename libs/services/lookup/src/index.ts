export * from './lookup.module';
