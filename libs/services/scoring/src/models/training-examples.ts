import { Injectable } from '@nestjs/common';
import type { MessageEnvelope, RuleCheckpoint } from '@ringfence/contracts';
import { type FeatureColumn, type FeatureMatrix, featureVector, numericFeatures } from '@ringfence/learning';
import { type StoredDecisionRecord, featureDeclarations, featuresFromRecord, scoringCheckpointOf } from '@ringfence/scoring-engine';
import { DecisionRecords } from '../decisions/decision-records';
import type { ModelLabelMaturityDto, PositiveReason } from '@ringfence/contracts';
import { type PositivesByReason, noPositives } from '../decisions/labelling-policy';
import type { RecordedDecision } from '../decisions/recorded-decision';
import { PATIENT, SubjectVerdicts, VerdictMemo } from '../decisions/subject-verdicts';
import { type DisputedPayment, keepsEnoughDisputes, labelMaturity } from './label-maturity';

/** Decision records read per page: a page's subjects are labelled together. */
const PAGE_SIZE = 1_000;

/** A checkpoint's training examples: one row per decision, the features it recorded, labelled with what is known now. */
export interface TrainingExamples {
  features: FeatureColumn[];
  matrix: FeatureMatrix;
  labels: Uint8Array;
  eventTimes: Float64Array;
  positives: number;
  /** Why each positive is one (`labelling-policy.ts`); the counts add up to `positives`. */
  positivesByReason: PositivesByReason;
  /** The latest payments, left out because their disputes may still come (`label-maturity.ts`); null when none were. */
  labelMaturity: ModelLabelMaturityDto | null;
}

/** How far a read may go (ADR-0016): past either bound it throws instead of reading on. */
export interface TrainingReadBounds {
  /** More decisions than this in the period: `TrainingTooLarge`. */
  maxExamples: number;
  /** Aborted (the training's time is up): the read stops with the signal's reason. */
  signal: AbortSignal;
}

/** The period holds more decisions than a training may learn from: its message is the model's `error`. */
export class TrainingTooLarge extends Error {
  constructor(maxExamples: number) {
    super(`stopped: the period holds more than TRAINING_MAX_EXAMPLES (${maxExamples}) decisions; train on a shorter period (from, to)`);
    this.name = 'TrainingTooLarge';
  }
}

/**
 * Reads a checkpoint's training examples: the data set's decision events of a checkpoint in
 * [from, to), page by page, each row the features the decision recorded (so training never sees
 * the future), positive when the labelling policy (`labelling-policy.ts`, asked through
 * `SubjectVerdicts`) judges the decision fraud as known now: at the PSP checkpoints the payment
 * itself (disputed and not forgiven, or by a customer already labelled FRAUDSTER), elsewhere
 * the customer or supplier; negative otherwise. The model reads the checkpoint's numeric
 * catalogue features.
 *
 * Rows are gathered row-major in growing blocks of float32 (4 bytes a value, not a JavaScript
 * object per decision) and turned column-major once at the end, as training reads them.
 */
@Injectable()
export class TrainingExampleReader {
  constructor(
    private readonly decisions: DecisionRecords,
    private readonly verdicts: SubjectVerdicts,
  ) {}

  async read(
    message: MessageEnvelope<unknown>,
    checkpoint: RuleCheckpoint,
    from: number,
    to: number,
    onPage: (examples: number) => Promise<void>,
    { maxExamples, signal }: TrainingReadBounds,
  ): Promise<TrainingExamples> {
    const tenant = { accountId: message.accountId, environment: message.environment };
    const catalogueCheckpoint = scoringCheckpointOf(checkpoint);
    const features = numericFeatures(featureDeclarations(catalogueCheckpoint));
    const names = features.map((column) => column.name);
    const rows = new RowBlocks(names.length);
    const labels: number[] = [];
    const reasons: Array<PositiveReason | null> = [];
    const eventTimes: number[] = [];
    const disputed: DisputedPayment[] = [];
    const memo = new VerdictMemo();
    let cursor: { timestamp: number; scoreId: string } | null = null;
    for (;;) {
      signal.throwIfAborted();
      const page: StoredDecisionRecord[] = await this.decisions.page(tenant, checkpoint, from, to, cursor, PAGE_SIZE);
      if (page.length === 0) break;
      cursor = { timestamp: page[page.length - 1].timestamp, scoreId: page[page.length - 1].scoreId };
      const examples = page.filter((record) => isExample(record.event as RecordedDecision));
      // Checked before the page is labelled: the labels are what costs (requests to their owners).
      if (labels.length + examples.length > maxExamples) throw new TrainingTooLarge(maxExamples);
      // Off the request path: an owner slow to answer (catching up after a bulk import) is asked again.
      const verdicts = await this.verdicts.judge(message, checkpoint, examples, memo, PATIENT);
      for (const [index, record] of examples.entries()) {
        const event = record.event as RecordedDecision;
        featureVector(names, featuresFromRecord(event.checkpoint ?? catalogueCheckpoint, event.features ?? {}), rows.next());
        const verdict = verdicts[index];
        labels.push(verdict.verdict === 'fraud' ? 1 : 0);
        reasons.push(verdict.verdict === 'fraud' ? verdict.reason : null);
        if (verdict.verdict === 'fraud' && verdict.disputedAt !== undefined) disputed.push({ paidAt: record.timestamp, disputedAt: verdict.disputedAt });
        eventTimes.push(record.timestamp);
      }
      await onPage(labels.length);
      if (page.length < PAGE_SIZE) break;
    }
    // Rows come in event time (pages are read in timestamp order): the immature ones are the last.
    const maturity = labelMaturity(disputed);
    const cut = maturity === null ? labels.length : countUpTo(eventTimes, maturity.cutoff);
    const kept = keepsEnoughDisputes(disputed, maturity?.cutoff) ? cut : labels.length;
    const labelArray = Uint8Array.from(labels.slice(0, kept));
    const positivesByReason = noPositives();
    for (const reason of reasons.slice(0, kept)) if (reason !== null) positivesByReason[reason] += 1;
    return {
      features,
      matrix: { rowCount: kept, featureNames: names, values: rows.columnMajor(kept) },
      labels: labelArray,
      eventTimes: Float64Array.from(eventTimes.slice(0, kept)),
      positives: labelArray.reduce((sum, label) => sum + label, 0),
      positivesByReason,
      labelMaturity: maturity === null || kept === labels.length ? null : { ...maturity, leftOut: labels.length - kept },
    };
  }
}

/** How many of the ascending `times` are at or before `limit`. */
function countUpTo(times: readonly number[], limit: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle] <= limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A decision that becomes a row: it recorded its features and its subject. */
const isExample = (event: RecordedDecision): event is RecordedDecision & Required<Pick<RecordedDecision, 'features' | 'subject'>> =>
  event.features !== undefined && event.subject !== undefined;

/** Row vectors written in place into blocks of 4,096 rows. */
class RowBlocks {
  private static readonly ROWS_PER_BLOCK = 4_096;
  private readonly blocks: Float32Array[] = [];
  private used = RowBlocks.ROWS_PER_BLOCK;

  constructor(private readonly width: number) {}

  /** The next row's storage. */
  next(): Float32Array {
    if (this.used === RowBlocks.ROWS_PER_BLOCK) {
      this.blocks.push(new Float32Array(RowBlocks.ROWS_PER_BLOCK * this.width));
      this.used = 0;
    }
    const block = this.blocks[this.blocks.length - 1];
    const row = block.subarray(this.used * this.width, (this.used + 1) * this.width);
    this.used += 1;
    return row;
  }

  /** The `rowCount` rows as one column-major array (feature f of row r at f * rowCount + r). */
  columnMajor(rowCount: number): Float32Array {
    const values = new Float32Array(rowCount * this.width);
    for (let row = 0; row < rowCount; row += 1) {
      const block = this.blocks[Math.floor(row / RowBlocks.ROWS_PER_BLOCK)];
      const offset = (row % RowBlocks.ROWS_PER_BLOCK) * this.width;
      for (let feature = 0; feature < this.width; feature += 1) values[feature * rowCount + row] = block[offset + feature];
    }
    return values;
  }
}
