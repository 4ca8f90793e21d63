/**
 * How the examples reach a model: a real OpenAI-compatible endpoint when OPENAI_API_KEY is set, otherwise the
 * scripted server on 127.0.0.1 playing the example's scripted model, so every example runs offline.
 */
import OpenAI from "openai";
import { startScriptedServer, type Script, type ScriptedServer } from "../../test/scripted-openai/server";

export interface Connection {
  client: OpenAI;
  model: string;
  /** True when talking to a real endpoint. */
  live: boolean;
  /** Stops the scripted server, if one was started. */
  close(): Promise<void>;
}

/**
 * The client and model to talk to: with OPENAI_API_KEY, the endpoint at OPENAI_BASE_URL (optional) and OPENAI_MODEL
 * (default "gpt-4o-mini"); otherwise a scripted server started for `script`, as model `scriptedModel`.
 */
export async function connect(script: Script, scriptedModel: string): Promise<Connection> {
  if (process.env.OPENAI_API_KEY) {
    const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL || undefined });
    const model = process.env.OPENAI_MODEL || "gpt-4o-mini";
    console.log(`Model: ${model} at ${client.baseURL}`);
    return { client, model, live: true, close: async () => {} };
  }
  const server: ScriptedServer = await startScriptedServer(script);
  console.log(`No OPENAI_API_KEY: using the scripted model at ${server.baseURL}`);
  return {
    client: new OpenAI({ baseURL: server.baseURL, apiKey: "scripted", maxRetries: 0 }),
    model: scriptedModel,
    live: false,
    close: () => server.close(),
  };
}
