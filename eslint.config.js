// typescript-eslint's recommended rules over the whole tree, checked by `npm run lint` in CI (.ci/run)
// (docs/DEPENDENCIES.md says why these tools).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.tmp/', 'data/', 'coverage/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // XML 1.0 and JSON text are defined by their control characters: the regexes that strip or refuse them mean it.
      'no-control-regex': 'off',
    },
  },
  { files: ['src/web/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
);
