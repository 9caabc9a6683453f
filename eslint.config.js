import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-*/',
      '.astro/',
      '.data*/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'bench/',
    ],
  },
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  // The React islands: the rules of hooks and the React Compiler's checks.
  { files: ['src/islands/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
