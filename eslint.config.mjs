import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '**/*.generated.ts', 'packages/server/drizzle/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='parseFloat']", message: 'Money is never floating point on the server: use decimal.js.' },
      ],
    },
  },
  {
    files: ['packages/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'no-restricted-syntax': 'off', 'react-hooks/set-state-in-effect': 'off' },
  },
  {
    // Features do not import each other: shared UI lives in src/components, shared state in src/core (the kernel).
    files: ['packages/client/src/features/**/*.{ts,tsx}'],
    rules: {
      // A feature's top-level file (routes.tsx) reaches the layers below features with ../../ too. The precise rules
      // (and the rest of the layering) are dependency-cruiser's: packages/client/.dependency-cruiser.cjs.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*/**', '!../../../**', '!../../lib/**', '!../../components/**', '!../../core/**', '!../../api/**'],
              message: 'Features must not import other features.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', 'scripts/**'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
);
