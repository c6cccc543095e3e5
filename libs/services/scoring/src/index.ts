export * from './scoring.module';
