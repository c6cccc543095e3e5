import { hostname } from 'node:os';
import type { ReadDependency } from '@ringfence/bus';
import { EventTopics } from '@ringfence/contracts';

/**
 * The consumer group that keeps this instance's model book: one per process, as for the rule
 * book (rules-groups.ts), so every scoring replica hears of every activation.
 */
export const MODEL_BOOK_GROUP = `scoring-models.${hostname()}-${process.pid}`;

/** What a checkpoint waits for: every model activated before it is in this instance's model book. */
export const MODEL_BOOK_DEPENDENCY: ReadDependency = { group: MODEL_BOOK_GROUP, topics: [EventTopics.modelActivated] };
