// relay.config.ts
export default {
  hooks: {
    onIdle: async (ctx) => {
      return { inject: '[STATUS CHECK] Are you making progress?' };
    }
  },
  options: {
    idleThreshold: 60000, // 60 seconds instead of default 30
  }
};
