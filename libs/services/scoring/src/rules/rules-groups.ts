import { hostname } from 'node:os';
import type { ReadDependency } from '@ringfence/bus';
import { EventTopics } from '@ringfence/contracts';

/**
 * The consumer group that keeps this instance's rule book: one per process (every scoring
 * replica must see every saved rule, where a shared group would split them; two processes may
 * share a host). A new group reads the topic from its start; versions only move forward, so
 * that replay is harmless, and the topic holds only rule saves, so it is short.
 */
export const RULE_BOOK_GROUP = `scoring-rules.${hostname()}-${process.pid}`;

/** What a checkpoint waits for: every rule saved before it is in this instance's rule book. */
export const RULE_BOOK_DEPENDENCY: ReadDependency = { group: RULE_BOOK_GROUP, topics: [EventTopics.ruleSaved] };
