import { Inject, Injectable } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import type { CheckpointRpcTopic, MessageEnvelope, RpcTopicMap } from '@ringfence/contracts';
import type { Logger, RingfenceConfig } from '@ringfence/platform';
import { type RuleEnvironments, loadFeatureReferenceData } from '@ringfence/scoring-engine';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER, recommendationsGiven } from '@ringfence/service-runtime';
import type { CheckpointDefinition } from './checkpoint-definition';
import { CheckpointFacts } from './checkpoint-facts';
import { scoredAnswer } from './checkpoint-stages/answer.stage';
import { readCheckpointRequest, subjectWithRequest } from './checkpoint-stages/checkpoint-request';
import { decideCheckpoint, sourceSignals } from './checkpoint-stages/decision.stage';
import { FactsStage, lookupOf } from './checkpoint-stages/facts.stage';
import { checkpointFeatures } from './checkpoint-stages/features.stage';
import { DeviceFacts } from './checkpoint-stages/device-facts';
import { GraphFacts } from './checkpoint-stages/graph-facts';
import { ModelStage } from './checkpoint-stages/model.stage';
import { RulesStage, ruleInputsOf } from './checkpoint-stages/rules.stage';
import { ModelBook } from './models/model-book';
import { indicatorsOfFacts } from './payload-indicators';
import { RuleBook } from './rules/rule-book';
import { ruleBudgetsOf } from './rules/rule-budgets';
import { RULE_ENVIRONMENTS } from './rules/rule-environment.provider';
import { VelocityState } from './velocity-state.service';

export interface ScoreOptions {
  /**
   * Score even when the checkpoint's own event named a key the account could not add (it holds
   * its share, ADR-0016), on the counters it holds: for an `/async` update, whose decision
   * goes to the feed and nobody could be told 429. Otherwise such a checkpoint is refused (429).
   */
  scoreOverShare?: boolean;
}

/**
 * Scores any checkpoint the same way, in stages (`checkpoint-stages/`): the facts (the subject
 * as stored merged in memory with this request, read your own writes; its labels; the graph; the
 * known-fraud lookup; the client SDKs' device), the checkpoint's feature vector (docs/features.md), the model's score
 * over it (docs/scoring.md), the rules, the decision by the sources' precedence (docs/api.md,
 * "How a checkpoint decides") and the answer: the decision event (the recommendation, the
 * features it was made from and the reason of its source), which the gateway publishes on the
 * decision feed. Every stage between the owners' answers is synchronous.
 */
@Injectable()
export class CheckpointScorer {
  private readonly facts: FactsStage;
  private readonly model: ModelStage;
  private readonly rules: RulesStage;

  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    owners: CheckpointFacts,
    @Inject(RINGFENCE_CONFIG) config: RingfenceConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    ruleBook: RuleBook,
    modelBook: ModelBook,
    @Inject(RULE_ENVIRONMENTS) ruleEnvironments: RuleEnvironments,
    private readonly velocity: VelocityState,
  ) {
    // The features' reference tables (IP countries, disposable domains) load now, not in the first checkpoint.
    loadFeatureReferenceData();
    this.facts = new FactsStage(owners, new GraphFacts(bus, config, logger), new DeviceFacts(bus, config, logger));
    this.model = new ModelStage(modelBook);
    this.rules = new RulesStage(ruleBook, ruleEnvironments, ruleBudgetsOf(config), logger);
  }

  /**
   * Scores a checkpoint request and answers with the decision; the gateway publishes it and
   * answers with its recommendation, so a decision that comes too late is simply dropped.
   */
  async score<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<RpcTopicMap[R]['request']>,
    { scoreOverShare = false }: ScoreOptions = {},
  ): Promise<RpcTopicMap[R]['reply']> {
    // Before anything is asked of the owners: a checkpoint past the account's share is answered 429 (ADR-0016).
    if (!scoreOverShare) this.velocity.refuseWhenOverShare(message);
    const request = readCheckpointRequest(definition, message);
    const [entities, labels, graph, requestEvidence, sdkDevice] = await this.facts.askOwners(definition, message, request);
    const subjectDocument = subjectWithRequest(entities.subject, request);
    const fields = subjectDocument?.fields ?? {};
    // The stored subject can only add indicator values, asked about once it is read.
    const indicators = indicatorsOfFacts(fields, request.facts);
    const lookup = lookupOf(request, requestEvidence, indicators, await this.facts.storedOnlyEvidence(message, request, indicators));
    // Velocity from memory: the barrier waited for the velocity consumer, which kept this event's counters from before it.
    const velocity = this.velocity.featuresFor(definition.ingestTopic, message, request.facts);
    const features = checkpointFeatures(definition.checkpoint, request, subjectDocument, fields, graph, lookup, velocity, sdkDevice);
    const modelScored = this.model.score(message, definition.checkpoint, request, features);
    const signals = sourceSignals(definition, request, fields, labels, lookup, graph, modelScored.model);
    const ruleInputs = ruleInputsOf(request, graph.network, labels, lookup, modelScored.model.score);
    const rules = this.rules.evaluate(message, request, ruleInputs, features);
    const decision = decideCheckpoint(signals, rules);
    recommendationsGiven.labels(definition.checkpoint, decision.action, decision.source).inc();
    return scoredAnswer(definition, request, entities.references, { features, modelScored, signals, ruleInputs, rules, decision });
  }
}
