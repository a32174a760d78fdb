// relay.config.ts
export default {
  hooks: {
    onMessageReceived: async (msg, ctx) => {
      // Suppress status broadcasts while busy
      if (msg.from === '*' && msg.content.startsWith('STATUS:')) {
        return { suppress: true, log: `Suppressed broadcast from ${msg.from}` };
      }

      // Highlight urgent messages
      if (msg.content.includes('URGENT')) {
        return {
          inject: `\n>>> URGENT from ${msg.from}: ${msg.content} <<<\n`
        };
      }

      // Default formatting (return nothing to use default)
    }
  }
};
