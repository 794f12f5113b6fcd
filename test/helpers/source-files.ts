/** The TypeScript sources of the package, for tests that read the code itself (message keys, labels). */
import * as fs from 'fs';
import * as path from 'path';

/** The repository root (dist/test/helpers → repo root). */
export const REPO = path.resolve(__dirname, '..', '..', '..');

/** Every .ts file in `dir` (relative to the repository), and below it when `deep`. */
export function sourceFiles(dir: string, deep = true): string[] {
  const full = path.join(REPO, dir);
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(full, entry.name);
    if (entry.isDirectory()) return deep ? sourceFiles(path.join(dir, entry.name)) : [];
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}
