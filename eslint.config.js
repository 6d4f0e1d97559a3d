// Lint: TypeScript rules, React hooks, and the one-way import direction of docs/architecture.md
// 'The picture': shared imports neither side; console and server never import each other; inside
// the console, pages and layout → resources → components → hooks → providers → shared.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

/** The console's layers, lowest first: a layer imports only the layers below it. */
const CONSOLE_LAYERS = ['providers', 'hooks', 'components', 'resources', ['layout', 'pages']];

function consoleLayers() {
  const zones = [];
  CONSOLE_LAYERS.forEach((layer, i) => {
    const above = CONSOLE_LAYERS.slice(i + 1).flat();
    for (const target of [layer].flat()) {
      for (const from of above) {
        zones.push({ target: `./src/console/${target}`, from: `./src/console/${from}`, message: `console ${target}/ must not import ${from}/ (docs/architecture.md 'The picture')` });
      }
    }
  });
  return zones;
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', '.bench-data', 'src/shared/generated'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    rules: {
      // The React Compiler's rules (eslint-plugin-react-hooks 7 'recommended-latest'): code the
      // compiler (vite.config.ts) would have to leave out of its memoisation is named here.
      ...reactHooks.configs['recommended-latest'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/shared', from: './src/server', message: 'shared must not import the server' },
            { target: './src/shared', from: './src/console', message: 'shared must not import the console' },
            { target: './src/console', from: './src/server', message: 'the console must not import the server' },
            { target: './src/server', from: './src/console', message: 'the server must not import the console' },
            ...consoleLayers(),
          ],
        },
      ],
    },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
  },
);
