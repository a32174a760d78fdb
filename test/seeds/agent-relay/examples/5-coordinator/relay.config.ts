// relay.config.ts
export default {
  hooks: {
    onSessionStart: async (ctx) => {
      if (ctx.agentName === 'Coordinator') {
        return {
          inject: `[COORDINATOR MODE]
You are managing the following agents. Monitor their status.
Use @relay:AgentName to communicate.
Use @relay:* to broadcast.`,
          sendMessage: {
            to: '*',
            content: 'Coordinator online. Report status.'
          }
        };
      }
    },

    onMessageReceived: async (msg, ctx) => {
      // Log all incoming messages for coordinator
      if (ctx.agentName === 'Coordinator') {
        return {
          log: `[${msg.from}] ${msg.content.slice(0, 200)}`
        };
      }
    }
  }
};
