// relay.config.ts
export default {
  hooks: {
    onSessionStart: async (ctx) => ({
      log: `START: ${ctx.agentName} in ${ctx.workingDir}`
    }),

    onOutput: async (output, ctx) => ({
      log: `OUTPUT[${ctx.agentName}]: ${output.slice(0, 100)}`
    }),

    onMessageReceived: async (msg, ctx) => ({
      log: `MSG[${ctx.agentName}] from ${msg.from}: ${msg.content.slice(0, 100)}`
    }),

    onIdle: async (ctx) => ({
      log: `IDLE: ${ctx.agentName} for ${ctx.idleSeconds}s`
    }),

    onSessionEnd: async (ctx) => ({
      log: `END: ${ctx.agentName}`
    })
  }
};
