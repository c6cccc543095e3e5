import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calibrationCasesMarkdown, featureCatalogueMarkdown, scoreWeightsMarkdown, withGeneratedSection } from './test-support/scoring-docs';

/**
 * docs/features.md is generated from the feature catalogue, and docs/scoring.md's weights and
 * calibration tables from the model and its calibration cases, so the documentation cannot
 * drift from the code. This test fails when the committed files differ from what the code
 * says; `npm run docs:features` rewrites them.
 */
const DOCS = join(__dirname, '..', '..', '..', 'docs');
const UPDATE = process.env.UPDATE_FEATURE_DOCS === '1';

function expectCommitted(file: string, expected: string) {
  const path = join(DOCS, file);
  if (UPDATE) writeFileSync(path, expected);
  expect(readFileSync(path, 'utf8')).toBe(expected);
}

describe('feature and scoring docs', () => {
  it('docs/features.md is the catalogue (npm run docs:features rewrites it)', () => {
    expectCommitted('features.md', featureCatalogueMarkdown());
  });

  it("docs/scoring.md's weights and calibration cases are the model's (npm run docs:features rewrites them)", () => {
    let scoring = readFileSync(join(DOCS, 'scoring.md'), 'utf8');
    scoring = withGeneratedSection(scoring, 'weights', scoreWeightsMarkdown());
    scoring = withGeneratedSection(scoring, 'calibration', calibrationCasesMarkdown());
    expectCommitted('scoring.md', scoring);
  });
});
