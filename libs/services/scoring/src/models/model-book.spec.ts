import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FeatureColumn, buildFeatureMatrix, modelDocument, trainScoringModel } from '@ringfence/learning';
import type { Logger } from '@ringfence/platform';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import type { ModelRepository, RuleTenant } from '@ringfence/scoring-engine';
import { TypeOrmModelRepository, SCORING_STORE_SCHEMA } from '@ringfence/scoring-store';
import { DEFAULT_THRESHOLDS, actionFor } from '@ringfence/scoring-engine';
import { DecisionExplainer } from './decision-explainer';
import { type ExplainedScore, explainLearned, learnedScore, withShippedModel } from './learned-score';
import { DefaultModels } from './default-models';
import { ModelBook } from './model-book';

const FEATURES: FeatureColumn[] = [
  { name: 'emailDisposable', type: 'bool' },
  { name: 'amountMajorUnits', type: 'double' },
];

/** A small trained model's JSON: fraud is a disposable e-mail. */
function trainedArtifact(): string {
  const records = Array.from({ length: 1_000 }, (_, row) => ({ emailDisposable: row % 10 === 0, amountMajorUnits: (row * 37) % 500 }));
  const { model } = trainScoringModel({
    algorithm: 'gradient-boosted-trees',
    features: FEATURES,
    matrix: buildFeatureMatrix(FEATURES, records),
    labels: Uint8Array.from(records, (record) => (record.emailDisposable ? 1 : 0)),
    eventTimes: Float64Array.from(records, (_, row) => row),
    boosting: { trees: 10 },
  });
  return JSON.stringify(modelDocument(model));
}

/** The same data learnt by a logistic regression. */
function regressionArtifact(): string {
  const records = Array.from({ length: 1_000 }, (_, row) => ({ emailDisposable: row % 10 === 0, amountMajorUnits: (row * 37) % 500 }));
  const { model } = trainScoringModel({
    algorithm: 'logistic-regression',
    features: FEATURES,
    matrix: buildFeatureMatrix(FEATURES, records),
    labels: Uint8Array.from(records, (record) => (record.emailDisposable ? 1 : 0)),
    eventTimes: Float64Array.from(records, (_, row) => row),
  });
  return JSON.stringify(modelDocument(model));
}

let sequence = 0;
const newTenant = (): RuleTenant => ({ accountId: `acc_book_${(sequence += 1)}`, environment: 'test' });

describe(ModelBook.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);
  const artifact = trainedArtifact();
  const errors: unknown[] = [];
  const logger = { info: () => undefined, error: (fields: unknown) => errors.push(fields) } as unknown as Logger;

  const directories: string[] = [];
  /** A directory for shipped model files, removed after the tests. */
  function shippedModelsDirectory(): string {
    const directory = mkdtempSync(join(tmpdir(), 'default-models-'));
    directories.push(directory);
    return directory;
  }
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  async function readyModel(models: ModelRepository, tenant: RuleTenant, modelId: string, modelArtifact = artifact): Promise<void> {
    await models.create(tenant, { modelId, checkpoint: 'customer', createdBy: 'key_a', from: null, to: 1 });
    const metrics = { auc: 1, averagePrecision: 1, precisionAtPrevent: 1, recallAtReview: 1 };
    await models.complete(tenant, modelId, {
      examples: 1_000,
      positives: 100,
      positivesByReason: { disputedPayment: 0, analystMarkedFraud: 0, customerLabelledFraudster: 0, customerFraud: 100, supplierFraudulent: 0, refundAbuse: 0 },
      labelMaturity: null,
      algorithm: 'gradient-boosted-trees',
      metrics,
      candidates: [{ algorithm: 'gradient-boosted-trees', metrics }],
      artifact: modelArtifact,
    });
  }

  it('loads the active models at start, follows activations, and keeps tenants apart', async () => {
    const models = new TypeOrmModelRepository(database.dataSource());
    const tenant = newTenant();
    const other = newTenant();
    await readyModel(models, tenant, 'mdl_book_first');
    await readyModel(models, tenant, 'mdl_book_second');
    await models.activate(tenant, 'mdl_book_first');

    const book = new ModelBook(models, logger, DefaultModels.none());
    await book.onModuleInit();
    expect(book.modelOf(tenant, 'customer')?.modelId).toBe('mdl_book_first');
    expect(book.modelOf(other, 'customer')).toBeUndefined();
    expect(book.modelOf(tenant, 'payout')).toBeUndefined();

    await models.activate(tenant, 'mdl_book_second');
    expect(book.modelOf(tenant, 'customer')?.modelId).toBe('mdl_book_first');
    await book.refresh(tenant, 'customer');
    expect(book.modelOf(tenant, 'customer')?.modelId).toBe('mdl_book_second');
  });

  it('loads a replaced model by id for decision reads, and nothing of another tenant', async () => {
    const models = new TypeOrmModelRepository(database.dataSource());
    const tenant = newTenant();
    await readyModel(models, tenant, 'mdl_book_old');
    const book = new ModelBook(models, logger, DefaultModels.none());

    const loaded = await book.byId(tenant, 'mdl_book_old');
    expect(loaded?.modelId).toBe('mdl_book_old');
    expect(await book.byId(newTenant(), 'mdl_book_old')).toBeNull();
    expect(await book.byId(tenant, 'mdl_book_unknown')).toBeNull();

    // The score comes with its explanation, which names what raised it.
    const fraud = { emailDisposable: true, amountMajorUnits: 20 };
    const scored = learnedScore(loaded!, fraud, DEFAULT_THRESHOLDS);
    expect(scored).toMatchObject({ modelVersion: 'mdl_book_old' });
    expect(scored.model.score).toBeGreaterThan(learnedScore(loaded!, { emailDisposable: false, amountMajorUnits: 20 }, DEFAULT_THRESHOLDS).model.score);
    expect(scored.model.contributions).toEqual(explainLearned(loaded!, fraud));
    expect(scored.model.contributions[0]).toMatchObject({ feature: 'emailDisposable', value: true, contribution: expect.any(Number) });
    expect(scored.model.contributions[0].contribution).toBeGreaterThan(0);
  });

  it('completes the explanation of a decision recorded before events carried contributions, and leaves newer ones as they are', async () => {
    const models = new TypeOrmModelRepository(database.dataSource());
    const tenant = newTenant();
    await readyModel(models, tenant, 'mdl_book_explained');
    const explainer = new DecisionExplainer(new ModelBook(models, logger, DefaultModels.none()));
    const recorded = (raised: unknown[]) => ({
      checkpoint: 'customer',
      features: { modelVersion: 'mdl_book_explained', emailDisposable: true, amountMajorUnits: 20 },
      explanation: { modelVersion: 'mdl_book_explained', raised, lowered: [], rules: [], reason: 'model' },
    });

    const completed = (await explainer.complete(tenant, recorded([]))) as { explanation: { raised: { feature: string }[] } };
    expect(completed.explanation.raised[0]).toMatchObject({ feature: 'emailDisposable', value: true });

    const carried = recorded([{ feature: 'amountMajorUnits', value: 20, contribution: 0.5 }]);
    const named = { ...carried, explanation: { ...carried.explanation, model: { id: 'mdl_book_explained', kind: 'account', algorithm: 'gradient-boosted-trees' } } };
    expect(await explainer.complete(tenant, named)).toBe(named);
  });

  it('names the model that decided a decision recorded before explanations named it: the account\'s (with its algorithm), the shipped one, or the built-in one', async () => {
    const models = new TypeOrmModelRepository(database.dataSource());
    const tenant = newTenant();
    await readyModel(models, tenant, 'mdl_book_named');
    const defaults = shippedDefaults();
    const shippedId = defaults.of('customer')?.modelId as string;
    const explainer = new DecisionExplainer(new ModelBook(models, logger, defaults));
    const recorded = (modelVersion: string) => ({
      checkpoint: 'customer',
      features: { modelVersion, emailDisposable: true },
      explanation: { modelVersion, raised: [{ feature: 'emailDisposable', value: true, contribution: 1 }], lowered: [], rules: [], reason: 'model' },
    });
    const modelOf = async (modelVersion: string) => ((await explainer.complete(tenant, recorded(modelVersion))) as { explanation: { model?: unknown } }).explanation.model;

    expect(await modelOf('mdl_book_named')).toEqual({ id: 'mdl_book_named', kind: 'account', algorithm: 'gradient-boosted-trees' });
    expect(await modelOf(shippedId)).toEqual({ id: shippedId, kind: 'shipped', algorithm: 'gradient-boosted-trees' });
    expect(await modelOf('ringfence-additive-1')).toEqual({ id: 'ringfence-additive-1', kind: 'built-in', algorithm: 'additive' });
  });

  it('loads, scores and explains a logistic regression as it does trees, naming its algorithm', async () => {
    const models = new TypeOrmModelRepository(database.dataSource());
    const tenant = newTenant();
    await readyModel(models, tenant, 'mdl_book_regression', regressionArtifact());
    await models.activate(tenant, 'mdl_book_regression');
    const book = new ModelBook(models, logger, DefaultModels.none());
    await book.onModuleInit();

    const loaded = book.modelOf(tenant, 'customer');
    expect(loaded?.model.predictor.kind).toBe('logistic-regression');
    const fraud = learnedScore(loaded!, { emailDisposable: true, amountMajorUnits: 20 }, DEFAULT_THRESHOLDS);
    const genuine = learnedScore(loaded!, { emailDisposable: false, amountMajorUnits: 20 }, DEFAULT_THRESHOLDS);
    expect(fraud.learned).toEqual({ id: 'mdl_book_regression', kind: 'account', algorithm: 'logistic-regression' });
    expect(fraud.model.score).toBeGreaterThan(genuine.model.score);
    expect(fraud.model.contributions[0]).toMatchObject({ feature: 'emailDisposable', value: true });
    expect(fraud.model.contributions[0].contribution).toBeGreaterThan(0);
  });

  it('leaves the built-in model in charge, and says so, when an active model cannot be loaded', async () => {
    const models = new TypeOrmModelRepository(database.dataSource());
    const tenant = newTenant();
    await readyModel(models, tenant, 'mdl_book_broken', '{"format":"something else"}');
    await models.activate(tenant, 'mdl_book_broken');
    errors.length = 0;

    const book = new ModelBook(models, logger, DefaultModels.none());
    await book.onModuleInit();

    expect(book.modelOf(tenant, 'customer')).toBeUndefined();
    expect(errors).toEqual([expect.objectContaining({ modelId: 'mdl_book_broken', checkpoint: 'customer' })]);
  });

  it("offers the shipped default model of a checkpoint beside each tenant's own, and explains the decisions it made", async () => {
    const defaults = shippedDefaults();
    const models = new TypeOrmModelRepository(database.dataSource());
    const tenant = newTenant();
    const book = new ModelBook(models, logger, defaults);
    await book.onModuleInit();

    const shipped = book.shippedModelOf('customer');
    expect(shipped?.modelId).toMatch(/^mdl_default_customer_[0-9a-f]{12}$/);
    expect(book.shippedModelOf('payout')).toBeUndefined();
    expect(book.modelOf(tenant, 'customer')).toBeUndefined();
    // Decisions it made are explained by it, whatever the tenant.
    expect(await book.byId(tenant, shipped!.modelId)).toBe(shipped);

    await readyModel(models, tenant, 'mdl_book_own');
    await models.activate(tenant, 'mdl_book_own');
    await book.refresh(tenant, 'customer');
    expect(book.modelOf(tenant, 'customer')?.modelId).toBe('mdl_book_own');
    expect(book.shippedModelOf('customer')).toBe(shipped);
  });

  it("answers with the shipped model's score only where it is above the built-in model's, explained by the model that decided", () => {
    const shipped = shippedDefaults().of('customer');
    if (shipped === undefined) throw new Error('the test model did not load');
    const builtIn = (score: number): ExplainedScore => ({ modelVersion: 'builtin', baseScore: 5, model: { score, action: actionFor(score, DEFAULT_THRESHOLDS), contributions: [] } });
    const fraud = { emailDisposable: true, amountMajorUnits: 20 };
    const shippedScore = learnedScore(shipped, fraud, DEFAULT_THRESHOLDS).model.score;

    const raised = withShippedModel(builtIn(shippedScore - 1), shipped, fraud, DEFAULT_THRESHOLDS);
    expect(raised).toEqual(learnedScore(shipped, fraud, DEFAULT_THRESHOLDS));
    expect(raised.model.contributions[0]).toMatchObject({ feature: 'emailDisposable', value: true });
    // Never lower: a built-in score at or above the shipped model's stands, with its own explanation.
    expect(withShippedModel(builtIn(shippedScore), shipped, fraud, DEFAULT_THRESHOLDS)).toEqual(builtIn(shippedScore));
    expect(withShippedModel(builtIn(90), shipped, { emailDisposable: false, amountMajorUnits: 20 }, DEFAULT_THRESHOLDS)).toEqual(builtIn(90));
    expect(withShippedModel(builtIn(0), undefined, fraud, DEFAULT_THRESHOLDS)).toEqual(builtIn(0));
  });

  /** The test's model, shipped as the customer checkpoint's default. */
  function shippedDefaults(): DefaultModels {
    const directory = shippedModelsDirectory();
    writeFileSync(join(directory, 'customer.json'), JSON.stringify({ provenance: { note: 'a test' }, model: JSON.parse(artifact) }));
    return DefaultModels.load(directory);
  }

  it('refuses to start with a shipped file that is not named after a checkpoint or not a model', () => {
    const misnamed = shippedModelsDirectory();
    writeFileSync(join(misnamed, 'transaction.json'), JSON.stringify({ model: JSON.parse(artifact) }));
    expect(() => DefaultModels.load(misnamed)).toThrow(/not named after a checkpoint/);
    const broken = shippedModelsDirectory();
    writeFileSync(join(broken, 'customer.json'), JSON.stringify({ model: { format: 'other' } }));
    expect(() => DefaultModels.load(broken)).toThrow(/model document \$\.format/);
  });
});
