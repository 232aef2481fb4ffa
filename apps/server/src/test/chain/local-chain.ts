import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  parseAbi,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';

/**
 * A real local EVM for the payout tests (docs/decisions.md, "Payout tests run on Hardhat's network"):
 * Hardhat 2's network started inside the test process and served over JSON-RPC on a free port, so
 * the code under test and a child-process server reach it as they would reach Polygon. Chain id 137.
 * The 6-decimal test USDT (TestUSDT.sol beside this file) is compiled with solc-js, cached by source
 * hash in the temp directory, and deployed by `deployTestUsdt`. Offline: nothing is downloaded.
 */

const require = createRequire(import.meta.url);
const here = import.meta.dirname;

/** A throwaway key that deploys and mints the test token (given gas when the chain starts). */
const FUNDER_KEY: Hex = `0x${'5eed'.repeat(16)}`;

export interface LocalChain {
  url: string;
  public: ReturnType<typeof createPublicClient>;
  test: ReturnType<typeof createTestClient>;
  /** JSON-RPC calls Hardhat adds (hardhat_dropTransaction ...), answered raw. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  close(): Promise<void>;
}

interface HardhatServer {
  listen(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}

let started: Promise<LocalChain> | undefined;

/** One network per test process (Hardhat keeps one in its runtime environment); started once. */
export function startLocalChain(): Promise<LocalChain> {
  started ??= start();
  return started;
}

async function start(): Promise<LocalChain> {
  process.env.HARDHAT_CONFIG = path.join(here, 'hardhat.config.cjs');
  process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = 'true';
  const hre = require('hardhat') as {
    network: { provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> } };
    run(task: string, args: Record<string, unknown>): Promise<unknown>;
  };
  const server = (await hre.run('node:create-server', {
    hostname: '127.0.0.1',
    port: 0,
    provider: hre.network.provider,
  })) as HardhatServer;
  const { port } = await server.listen();
  const url = `http://127.0.0.1:${port}`;
  const chain = { ...polygon, rpcUrls: { default: { http: [url] } } };
  await hre.network.provider.request({
    method: 'hardhat_setBalance',
    params: [privateKeyToAccount(FUNDER_KEY).address, `0x${(10n ** 24n).toString(16)}`],
  });
  return {
    url,
    public: createPublicClient({ chain, transport: http(url) }),
    test: createTestClient({ chain, mode: 'hardhat', transport: http(url) }),
    rpc: <T>(method: string, params: unknown[] = []) =>
      hre.network.provider.request({ method, params }) as Promise<T>,
    async close() {
      await server.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The test USDT

export const testUsdtAbi = parseAbi([
  'function mint(address to, uint256 value)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

/** Compiles TestUSDT.sol once per source (the artifact is kept in the temp directory, never committed). */
function testUsdtArtifact(): Artifact {
  const source = fs.readFileSync(path.join(here, 'TestUSDT.sol'), 'utf8');
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const key = createHash('sha256').update(solcVersion).update(source).digest('hex').slice(0, 16);
  const cached = path.join(os.tmpdir(), `elex-test-usdt-${key}.json`);
  if (fs.existsSync(cached)) return JSON.parse(fs.readFileSync(cached, 'utf8')) as Artifact;
  const solc = require('solc') as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'TestUSDT.sol': { content: source } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          evmVersion: 'cancun',
          outputSelection: { '*': { TestUSDT: ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  ) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const contract = output.contracts['TestUSDT.sol']?.TestUSDT;
  if (!contract) throw new Error('solc produced no TestUSDT');
  const artifact: Artifact = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  // Written whole under another name first: a parallel test file never reads half an artifact.
  const partial = `${cached}.${process.pid}`;
  fs.writeFileSync(partial, JSON.stringify(artifact));
  fs.renameSync(partial, cached);
  return artifact;
}

export function funderClient(chain: LocalChain) {
  return createWalletClient({
    account: privateKeyToAccount(FUNDER_KEY),
    chain: { ...polygon, rpcUrls: { default: { http: [chain.url] } } },
    transport: http(chain.url),
  });
}

/** Deploys a fresh test USDT (6 decimals) and answers its address. Needs automine on. */
export async function deployTestUsdt(chain: LocalChain): Promise<Address> {
  const artifact = testUsdtArtifact();
  const hash = await funderClient(chain).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
  const receipt = await chain.public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (!receipt.contractAddress) throw new Error('the test USDT did not deploy');
  return receipt.contractAddress;
}

/** Mints test USDT (micro units) to an address; needs automine on. */
export async function mintUsdt(chain: LocalChain, token: Address, to: Address, micro: bigint): Promise<void> {
  const hash: Hash = await funderClient(chain).writeContract({
    address: token,
    abi: testUsdtAbi,
    functionName: 'mint',
    args: [to, micro],
  });
  await chain.public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

export async function usdtBalance(chain: LocalChain, token: Address, owner: Address): Promise<bigint> {
  return chain.public.readContract({
    address: token,
    abi: testUsdtAbi,
    functionName: 'balanceOf',
    args: [owner],
  });
}

/** Gives an address native gas (POL on Polygon) straight from the node. */
export async function setGasBalance(chain: LocalChain, address: Address, wei: bigint): Promise<void> {
  await chain.test.setBalance({ address, value: wei });
}
