// relay.config.ts — the seed's onMessageReceived "Example - Custom formatting"
export default {
  hooks: {
    onMessageReceived: async (msg, ctx) => {
      // Add priority indicator
      const priority = msg.metadata?.urgent ? '🚨 URGENT' : '📨';
      return {
        inject: `${priority} Message from ${msg.from}: ${msg.content}`
      };
    }
  }
};
