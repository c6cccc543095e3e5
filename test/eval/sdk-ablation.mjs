// The client SDK's features shown to count (issue 36, docs/model.md "The client SDK's features"):
// the same trees trained on the same decisions, once with every numeric feature and once without
// the `sdk*` ones (the device and session features of docs/features.md "Client SDK"), judged by
// the truth on the same later decisions. Same seed, same split, same learning code; only the
// columns differ.
//
//   within a run: trained on the first 70 % (the API's labels at the split, and the truth), judged on the last 30 %
//   EVAL_SAVE_SDK_MODELS=<prefix>     also trains both on every decision of this run by the truth and
//                                     writes <prefix>.with-sdk.json and <prefix>.without-sdk.json
//   EVAL_COMPARE_SDK_MODELS=<prefix>  judges those two (trained on another simulation) on this run's last 30 %
import { readFileSync, writeFileSync } from 'node:fs';

const isSdk = (feature) => feature.name.startsWith('sdk');

/**
 * Rows of the evaluation's results: each pair of models with and without the SDK features.
 * `context` is the evaluation's: its learning library, the numeric features, the decisions before
 * and after the split, the API-style label of a decision, and its helpers.
 */
export async function sdkAblation(context) {
  const { learning, features, before, after, decisions, labelled, thresholds, evaluate, scoresOf, timed, log, provenance } = context;
  const withSdk = features;
  const withoutSdk = features.filter((feature) => !isSdk(feature));
  log(`client SDK features: ${features.length - withoutSdk.length} of ${features.length} (${features.filter(isSdk).map((feature) => feature.name).join(', ')})`);
  const known = (rows) => rows.filter((row) => row.features.sdkDeviceKnown === true || row.features.sdkDeviceKnown === 1).length;
  log(`decisions whose device the SDK reported: ${known(decisions)} of ${decisions.length}; of the fraud, ${known(decisions.filter((row) => row.fraud))} of ${decisions.filter((row) => row.fraud).length}`);
  const truthOf = (rows) => Uint8Array.from(rows, (row) => (row.fraud ? 1 : 0));
  const judged = truthOf(after);
  const results = {};
  const fit = async (name, columns, rows, labels) => {
    const training = { features: columns, matrix: learning.buildFeatureMatrix(columns, rows.map((row) => row.features)), labels, eventTimes: Float64Array.from(rows, (row) => row.timestamp), thresholds };
    return (await timed(name, () => learning.trainScoringModel({ ...training, algorithm: 'gradient-boosted-trees' }))).model;
  };
  const judge = (model) => {
    const scores = scoresOf(model, learning.buildFeatureMatrix(model.features, after.map((row) => row.features)));
    return evaluate(scores, scores, judged);
  };
  const apiLabels = Uint8Array.from(before, (row) => (labelled(row) ? 1 : 0));
  let contributions;
  for (const [labels, labelName] of [[apiLabels, "the API's labels at the split"], [truthOf(before), 'the truth']]) {
    for (const [columns, columnsName] of [[withSdk, 'with'], [withoutSdk, 'without']]) {
      const model = await fit(`trees on ${labelName}, ${columnsName} the SDK features`, columns, before, labels);
      results[`trees trained here on the first 70 % (${labelName}), ${columnsName} the client SDK features`] = judge(model);
      if (columnsName === 'with' && labelName === 'the truth') contributions = sdkContributions(model, after);
    }
  }
  if (process.env.EVAL_SAVE_SDK_MODELS) {
    for (const [columns, suffix] of [[withSdk, 'with-sdk'], [withoutSdk, 'without-sdk']]) {
      const model = await fit(`trees on the truth of every decision, ${suffix}`, columns, decisions, truthOf(decisions));
      const file = `${process.env.EVAL_SAVE_SDK_MODELS}.${suffix}.json`;
      writeFileSync(file, `${JSON.stringify({ provenance: { ...provenance, labels: 'truth', examples: decisions.length, features: columns.length }, model: learning.modelDocument(model) })}\n`);
      log(`saved ${file}`);
    }
  }
  if (process.env.EVAL_COMPARE_SDK_MODELS) {
    for (const suffix of ['with-sdk', 'without-sdk']) {
      const file = `${process.env.EVAL_COMPARE_SDK_MODELS}.${suffix}.json`;
      const document = JSON.parse(readFileSync(file, 'utf8'));
      results[`trees trained on another simulation (${JSON.stringify(document.provenance.configuration)}) by the truth, ${suffix.replace('-sdk', '')} the client SDK features`] = judge(learning.modelFromDocument(document.model));
    }
  }
  return { results, contributions };
}

/**
 * How much the model leans on the SDK features: of the mean absolute TreeSHAP contribution (log
 * odds) over the judged decisions, and over the fraudulent ones, the share of the `sdk*` features,
 * and the SDK features that weigh most.
 */
function sdkContributions(model, rows) {
  const names = model.features.map((feature) => feature.name);
  const summed = (subset) => {
    const totals = new Float64Array(names.length);
    for (const row of subset) {
      const { contributions } = model.predictor.explain(model.vectorOf(row.features));
      for (let index = 0; index < names.length; index += 1) totals[index] += Math.abs(contributions[index]);
    }
    const all = totals.reduce((sum, value) => sum + value, 0);
    const sdk = names.reduce((sum, name, index) => sum + (name.startsWith('sdk') ? totals[index] : 0), 0);
    const top = names
      .map((name, index) => ({ name, meanAbsContribution: Math.round((totals[index] / Math.max(1, subset.length)) * 1000) / 1000 }))
      .filter(({ name }) => name.startsWith('sdk'))
      .sort((left, right) => right.meanAbsContribution - left.meanAbsContribution)
      .slice(0, 5);
    return { rows: subset.length, sdkShare: Math.round((sdk / Math.max(all, 1e-12)) * 1000) / 1000, topSdkFeatures: top };
  };
  return { all: summed(rows), fraud: summed(rows.filter((row) => row.fraud)) };
}
