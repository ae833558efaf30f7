export default { testEnvironment: 'node', testMatch: ['**/*.test.mjs'], transform: {} }
