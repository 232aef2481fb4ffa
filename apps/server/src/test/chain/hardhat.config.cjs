// The local EVM the payout tests run against (src/test/chain/local-chain.ts starts it in process).
// Polygon's chain id, so signed transactions carry the id the production wallet uses; a fixed
// initial base fee keeps fee arithmetic in the tests readable. Nothing here compiles or downloads.
module.exports = {
  networks: {
    hardhat: {
      chainId: 137,
      hardfork: 'cancun',
      initialBaseFeePerGas: 1_000_000_000,
      mining: { auto: true, interval: 0, mempool: { order: 'fifo' } },
    },
  },
};
