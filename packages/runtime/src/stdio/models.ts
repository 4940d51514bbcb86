import {
  type AgentOptions,
  createLlmPlanner,
  type ExternalTools,
  listModels,
  type llmConfigFromEnv,
  planNext,
} from '@usher/agent';
import type { ModelListResult, ModelSetResult } from '@usher/protocol/stdio';
import type { McpRegistry } from '../mcp/registry.ts';
import { messageOf, RpcError } from './errors.ts';

type LlmConfig = NonNullable<ReturnType<typeof llmConfigFromEnv>>;

/** The deterministic planner, always there. */
export const RULES = { provider: 'usher', name: 'rules' } as const;
const PROVIDERS = ['usher', 'openai'] as const;
type Provider = (typeof PROVIDERS)[number];

/** How long listing an OpenAI-compatible service's models may take before the configured one is offered alone. */
const LIST_TIMEOUT_MS = 10_000;

/** What a {@link PlannerChoice} gives an LLM planner besides the model. */
export interface PlannerChoiceOptions {
  /** The MCP servers whose tools an LLM planner may call (those `ready` at each planning step). */
  mcp?: Pick<McpRegistry, 'tools' | 'call'>;
}

/**
 * The planners `model.list` and `model.set` choose from (DESIGN.md): provider `usher`, model
 * `rules` (the deterministic planner, current at start), and provider `openai`, the models of the
 * OpenAI-compatible service that `USHER_LLM_*` configure (none when it is not configured), which
 * may call the tools of the ready MCP servers while planning. The engine reads {@link planner} at
 * every planning step, so a change applies from the next step.
 */
export class PlannerChoice {
  private current: { provider: Provider; name: string } = { ...RULES };
  private chosen: AgentOptions['planner'] | undefined;

  constructor(
    private readonly llm: LlmConfig | null,
    private readonly log: (line: string) => void,
    private readonly options: PlannerChoiceOptions = {},
  ) {}

  /** The planner for the engine; undefined means the deterministic one. */
  planner(): AgentOptions['planner'] | undefined {
    return this.chosen;
  }

  async list(provider?: string): Promise<ModelListResult> {
    const which = provider === undefined ? this.current.provider : checkProvider(provider);
    const current = this.current.provider === which ? { current: this.current.name } : {};
    if (which === 'usher') return { provider: which, models: [RULES.name], ...current };
    const available = await this.openaiModels();
    return {
      provider: which,
      models: available.models,
      ...current,
      ...(available.error && { error: available.error }),
    };
  }

  /** Chooses a planner; an unknown provider or name is `-32602` and changes nothing. */
  async set(name: string, provider?: string): Promise<ModelSetResult> {
    const which = provider === undefined ? (name === RULES.name ? 'usher' : 'openai') : checkProvider(provider);
    if (which === 'usher') {
      if (name !== RULES.name)
        throw RpcError.invalidParams(`unknown model "${name}" of provider usher (it has "rules")`);
      this.current = { ...RULES };
      this.chosen = undefined;
      this.log('model: planning with the deterministic planner');
      return { ...RULES };
    }
    const llm = this.llm;
    if (!llm) {
      throw RpcError.invalidParams(
        `unknown model "${name}": no OpenAI-compatible service is configured (set USHER_LLM_BASE_URL and USHER_LLM_MODEL)`,
      );
    }
    const { models } = await this.openaiModels();
    if (!models.includes(name)) {
      throw RpcError.invalidParams(`unknown model "${name}" of provider openai (available: ${models.join(', ')})`);
    }
    this.current = { provider: 'openai', name };
    const mcp = this.options.mcp;
    this.chosen = createLlmPlanner({ ...llm, model: name }, planNext, {
      log: this.log,
      ...(mcp && { externalTools: mcpTools(mcp) }),
    });
    this.log(`model: planning with ${name} at ${llm.baseUrl}, the deterministic planner as fallback`);
    return { provider: 'openai', name };
  }

  /** The service's models; when it cannot be asked, the configured model alone, and why. */
  private async openaiModels(): Promise<{ models: string[]; error?: string }> {
    if (!this.llm) return { models: [] };
    try {
      return { models: await listModels(this.llm, { timeoutMs: Math.min(this.llm.timeoutMs, LIST_TIMEOUT_MS) }) };
    } catch (err) {
      this.log(`model: cannot list the models at ${this.llm.baseUrl}: ${messageOf(err)}`);
      return { models: [this.llm.model], error: messageOf(err) };
    }
  }
}

/** The ready MCP servers' tools, as the LLM planner calls them. */
function mcpTools(mcp: Pick<McpRegistry, 'tools' | 'call'>): ExternalTools {
  return {
    list: () => mcp.tools(),
    call: (tool, args, signal) => mcp.call(tool.server, tool.name, args, signal),
  };
}

function checkProvider(provider: string): Provider {
  if ((PROVIDERS as readonly string[]).includes(provider)) return provider as Provider;
  throw RpcError.invalidParams(`unknown provider "${provider}" (expected ${PROVIDERS.join(' or ')})`);
}
