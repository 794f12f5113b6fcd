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

/**
 * A dialog's definition as source text, for tests that read which limits it validates with:
 * nodes/<type>.html, and the editor module whose `dialog(` builds its `defaults` where the
 * html calls one (`ModularDevice.readings.dialog(`: the readings dialogs, editor/readings.ts).
 */
export function dialogDefinition(type: string): string {
  const html = fs.readFileSync(path.join(REPO, 'nodes', `${type}.html`), 'utf8');
  const modules = [...html.matchAll(/ModularDevice\.(\w+)\.dialog\(/g)].map((m) => m[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
  return [html, ...modules.map((m) => fs.readFileSync(path.join(REPO, 'nodes', 'editor', `${m}.ts`), 'utf8'))].join('\n');
}
