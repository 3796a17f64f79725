/** "Did you mean" for option validation: the gateway's options and the stores' own options use it alike. */

/** Case-insensitive Levenshtein distance between two names. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      const substitution = a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + substitution);
      previous = current;
    }
  }
  return row[b.length]!;
}

/** " (did you mean 'x'?)" for a misspelt name: the closest candidate within two edits, or ''. */
export function suggest(name: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best ? ` (did you mean '${best}'?)` : '';
}
