// Transactions in a session, as a strict TypeScript consumer writes them: solana_signTransaction,
// solana_signAllTransactions and eth_signTransaction typed by name through sessionRequest, the
// solanaSignTransaction, solanaSignAllTransactions and ethSignTransaction helpers, and the
// constants' literal types. Each `@ts-expect-error` line must be refused by the types (tsc fails
// if it compiles); everything else must compile.
import {
  EIP155_CHAINS,
  ETH_SIGN_TRANSACTION_METHOD,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_SIGN_ALL_MAX_TRANSACTIONS,
  SOLANA_SIGN_ALL_TRANSACTIONS_METHOD,
  SOLANA_SIGN_TRANSACTION_METHOD,
  SOLANA_TRANSACTION_MAX_BYTES,
  base58Encode,
  createNativeClient,
  ethSignTransaction,
  sendNativeSessionRequest,
  solanaSignAllTransactions,
  solanaSignTransaction,
  type EthSignTransactionParams,
  type EthTransactionInput,
  type EthTransactionRequest,
  type Hex,
  type SessionMethodParams,
  type SessionMethodResult,
  type SolanaSignAllTransactionsResult,
  type SolanaSignTransactionParams,
  type SolanaSignTransactionResult,
  type SolanaSignedTransaction,
} from '../../src/index.js';

const names: ['solana_signTransaction', 'solana_signAllTransactions', 'eth_signTransaction'] =
  [SOLANA_SIGN_TRANSACTION_METHOD, SOLANA_SIGN_ALL_TRANSACTIONS_METHOD, ETH_SIGN_TRANSACTION_METHOD];
const limits: [1232, 16] = [SOLANA_TRANSACTION_MAX_BYTES, SOLANA_SIGN_ALL_MAX_TRANSACTIONS];
const solanaParams: SessionMethodParams<'solana_signTransaction'> = { transaction: 'AQID' };
const solanaResult: SessionMethodResult<typeof SOLANA_SIGN_TRANSACTION_METHOD> = { signature: '5x', transaction: 'AQID' };
const ethParams: SessionMethodParams<'eth_signTransaction'> = ['0x02ef'];
const signer = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const ethParamsWithAddress: SessionMethodParams<'eth_signTransaction'> = ['0x02ef', signer];

const eip1559: EthTransactionRequest = {
  from: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  to: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  value: '0x2386f26fc10000',
  nonce: '0x7',
  gas: '0x5208',
  maxFeePerGas: '0x6fc23ac00',
  maxPriorityFeePerGas: '0x59682f00',
  chainId: '0x1',
  type: '0x2',
};
const legacy: EthTransactionRequest = { from: eip1559.from, to: null, nonce: '0x0', gasLimit: '0x30d40', gasPrice: '0x1', data: '0x6080' };
const eip2930: EthTransactionRequest = { ...legacy, to: eip1559.to, accessList: [{ address: eip1559.from, storageKeys: [] }], type: '0x1' };
const withBigints: EthTransactionInput = { from: eip1559.from, nonce: 7, gas: 21_000n, maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: '0x1', type: 2, data: new Uint8Array([1]) };

export async function transactionsUse(): Promise<void> {
  const client = createNativeClient({ application: 'com.example.wallet_bridge', transport: 'port' });
  const topic = '0'.repeat(64);
  const chainId = SOLANA_MAINNET_CHAIN_ID;

  // Inner methods typed by name.
  const signed: SolanaSignTransactionResult = await client.sessionRequest({ topic, chainId, request: { method: SOLANA_SIGN_TRANSACTION_METHOD, params: { transaction: 'AQID', pubkey: '7S3P' } } });
  const signature: string = signed.signature;
  const all: SolanaSignAllTransactionsResult = await sendNativeSessionRequest({ topic, chainId, request: { method: 'solana_signAllTransactions', params: { transactions: ['AQID', 'AQID'] as const } } });
  const raw: Hex = await client.sessionRequest({ topic, chainId: EIP155_CHAINS.base, request: { method: ETH_SIGN_TRANSACTION_METHOD, params: [eip1559] } });
  const rawFromHex: string = await client.sessionRequest({ topic, chainId: EIP155_CHAINS.base, request: { method: 'eth_signTransaction', params: ['0x02ef'] as const } });
  // A serialized transaction does not carry its sender: the session's address that signs it goes second.
  const rawWithAddress: Hex = await client.sessionRequest({ topic, chainId: EIP155_CHAINS.base, request: { method: 'eth_signTransaction', params: ['0x02ef', signer] } });

  // The helpers: bytes or base64 in, bytes out; the raw transaction as 0x-hex.
  const one: SolanaSignedTransaction = await solanaSignTransaction(client, { topic, chainId, transaction: new Uint8Array([1]), pubkey: '7S3P', expiry: 1_795_000_600 });
  const id: string = base58Encode(one.signature);
  const bytes: Uint8Array = one.transaction;
  const many: SolanaSignedTransaction[] = await solanaSignAllTransactions(client, { topic, chainId, transactions: ['AQID', new Uint8Array([1])], id: 'batch', timeoutMs: 300_000 });
  const rawHelper: Hex = await ethSignTransaction(client, { topic, chainId: EIP155_CHAINS.mainnet, transaction: withBigints });
  const rawFromBytes: Hex = await ethSignTransaction(client, { topic, chainId: EIP155_CHAINS.mainnet, transaction: new Uint8Array([2]) });
  const rawLegacy: Hex = await ethSignTransaction(client, { topic, chainId: EIP155_CHAINS.mainnet, transaction: legacy });
  const rawSignedBy: Hex = await ethSignTransaction(client, { topic, chainId: EIP155_CHAINS.mainnet, transaction: new Uint8Array([2]), address: signer });

  void [signature, all, raw, rawFromHex, rawWithAddress, id, bytes, many, rawHelper, rawFromBytes, rawLegacy, rawSignedBy];

  // @ts-expect-error solana_signTransaction takes { transaction }, not a bare string
  await client.sessionRequest({ topic, chainId, request: { method: 'solana_signTransaction', params: 'AQID' } });
  // @ts-expect-error the transaction is base64 text on the wire: the helper takes bytes
  await client.sessionRequest({ topic, chainId, request: { method: 'solana_signTransaction', params: { transaction: new Uint8Array([1]) } } });
  // @ts-expect-error solana_signAllTransactions takes { transactions }
  await client.sessionRequest({ topic, chainId, request: { method: 'solana_signAllTransactions', params: { transaction: 'AQID' } } });
  // @ts-expect-error its result has transactions and signatures, not one signature
  const notOne: SolanaSignTransactionResult = await client.sessionRequest({ topic, chainId, request: { method: 'solana_signAllTransactions', params: { transactions: ['AQID'] } } });
  // @ts-expect-error eth_signTransaction takes [transaction]
  await client.sessionRequest({ topic, chainId, request: { method: 'eth_signTransaction', params: eip1559 } });
  // @ts-expect-error eth_signTransaction takes [transaction] or [transaction, address], no more
  await client.sessionRequest({ topic, chainId, request: { method: 'eth_signTransaction', params: ['0x02ef', signer, signer] } });
  // @ts-expect-error the address is 0x and hex, not a name
  await client.sessionRequest({ topic, chainId, request: { method: 'eth_signTransaction', params: ['0x02ef', 'vitalik.eth'] } });
  // @ts-expect-error the helper's address is 0x and hex
  await ethSignTransaction(client, { topic, chainId: EIP155_CHAINS.mainnet, transaction: '0x02ef', address: 'vitalik.eth' });
  // @ts-expect-error quantities on the wire are hex strings, not numbers
  const numeric: EthTransactionRequest = { ...legacy, nonce: 0 };
  // @ts-expect-error nonce is required: the wallet has no network
  const noNonce: EthTransactionRequest = { from: legacy.from, gas: '0x5208', gasPrice: '0x1' };
  // @ts-expect-error a gas limit is required
  const noGas: EthTransactionRequest = { from: legacy.from, nonce: '0x0', gasPrice: '0x1' };
  // @ts-expect-error a fee is required
  const noFee: EthTransactionRequest = { from: legacy.from, nonce: '0x0', gas: '0x5208' };
  // @ts-expect-error gasPrice and EIP-1559 fees do not mix
  const mixed: EthTransactionRequest = { ...eip1559, gasPrice: '0x1' };
  // @ts-expect-error an EIP-1559 transaction is type 0x2
  const wrongType: EthTransactionRequest = { ...eip1559, type: '0x0' };
  // @ts-expect-error the wallet signs types 0x0, 0x1 and 0x2 only
  const blob: EthTransactionRequest = { ...legacy, type: '0x3' };
  // @ts-expect-error the helper resolves to the raw hex, not bytes
  const notBytes: Uint8Array = await ethSignTransaction(client, { topic, chainId: EIP155_CHAINS.mainnet, transaction: legacy });
  // @ts-expect-error the helper's signature is bytes: base58Encode it for the id
  const notText: string = (await solanaSignTransaction(client, { topic, chainId, transaction: 'AQID' })).signature;
  // @ts-expect-error solanaSignTransaction takes one transaction; solanaSignAllTransactions takes several
  await solanaSignTransaction(client, { topic, chainId, transactions: ['AQID'] });
  // @ts-expect-error a transaction is bytes or base64, not an array of numbers
  await solanaSignAllTransactions(client, { topic, chainId, transactions: [[1, 2, 3]] });
  void [notOne, numeric, noNonce, noGas, noFee, mixed, wrongType, blob, notBytes, notText];
}

void [names, limits, solanaParams, solanaResult, ethParams, ethParamsWithAddress, eip2930];
export type { EthSignTransactionParams, SolanaSignTransactionParams };
