export * from './scoring.module';
export * from './velocity.module';
export * from './velocity-state.service';
