import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { categoryOf, withCategories } from './categories.ts';

describe('categoryOf', () => {
  it('reads the category of a status from the model in scope', async () => {
    const model = await loadModel();
    for (const { status, category } of model.categories) expect(withCategories(model.categoryFor, () => categoryOf(status))).toBe(category);
    expect(withCategories(model.categoryFor, () => categoryOf(403))).toBe(model.categoryFor(400));
  });

  it('refuses outside a transform (no table to read)', () => {
    expect(() => categoryOf(400)).toThrow(/outside a transform/);
  });
});
