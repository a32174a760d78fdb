// agent-relay's onSessionEnd "Example - Request summary before exit" (seed 000), as written there.
export default {
  hooks: {
    onSessionEnd: async (ctx) => {
      return {
        inject: `[SESSION END] Please provide a brief summary:
1. What did you accomplish?
2. What's left to do?
3. Any blockers for the next agent?

Reply, then I'll save your response.`,
      };
    },
  },
};
