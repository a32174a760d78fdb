// relay.config.ts
export default {
  hooks: {
    onSessionStart: async () => ({ inject: 'CAPABLE-HOOK-RAN' }),
  },

  // Explicit capability grants (default: all false)
  capabilities: {
    allowNetworkInHooks: true,  // Permit fetch() in handlers
    allowFileReadInHooks: false, // Permit fs.readFile()
    unlimitedInjection: false,   // Remove 2000 char limit
  }
};
