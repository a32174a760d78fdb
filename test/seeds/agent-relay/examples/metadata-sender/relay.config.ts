// relay.config.ts — a sender attaching metadata to its messages (the sendMessage
// answer and ctx.notify, with acai's optional `metadata`)
export default {
  hooks: {
    onSessionStart: async (ctx) => {
      return {
        sendMessage: {
          to: 'Dev',
          content: `${ctx.agentName} froze the deploys`,
          metadata: { urgent: true, ticket: 'OPS-7' }
        }
      };
    },
    onOutput: async (output, ctx) => {
      ctx.notify('Dev', `FYI: ${output.slice(0, 50)}`, { urgent: false });
    }
  }
};
