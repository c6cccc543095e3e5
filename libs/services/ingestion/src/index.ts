export * from './ingestion.module';
