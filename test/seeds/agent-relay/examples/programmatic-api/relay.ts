// agent-relay's programmatic API, as an acai plugin (.acai/plugins/relay.ts):
// `relay` is the plugin's api; `new Relay({ name })` and `relay.wrap('claude')`
// are acai's own session (`acai --name MyAgent`).
async function loadMemories(agentId: string): Promise<string> {
  return `(none yet for ${agentId.length > 0 ? 'this agent' : 'anyone'})`;
}

export function register(relay) {
  // Register pattern handler
  relay.pattern('deploy', async (target, message, ctx) => {
    console.log(`Deploying to ${target}: ${message}`);
    return { inject: `Deployed to ${target}` };
  });

  // Register lifecycle hook
  relay.on('sessionStart', async (ctx) => {
    const memories = await loadMemories(ctx.agentId);
    ctx.inject(`Your memories:\n${memories}`);
  });
}
