// Pulls a fenced code block out of the README or a docs/ guide by the `<!-- name ... -->` marker above
// it, so tests run the very example users read and the docs cannot drift from the code.

export function readmeBlock(readme: string, name: string): string {
  const marker = readme.indexOf(`<!-- ${name}`);
  if (marker < 0) throw new Error(`README has no <!-- ${name} --> marker`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (!block) throw new Error(`README has no code block after <!-- ${name} -->`);
  return block[1];
}
