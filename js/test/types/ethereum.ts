// Ethereum in a session, as a strict TypeScript consumer writes it: the eip155 inner methods
// typed by name through sessionRequest (params tuples and results), the personalSign and
// signTypedDataV4 helpers, and the constants' literal types. Each `@ts-expect-error` line must be
// refused by the types (tsc fails if it compiles); everything else must compile.
import {
  EIP155_CHAINS,
  EIP155_NAMESPACE,
  ETH_ACCOUNTS_CHANGED_EVENT,
  ETH_ACCOUNTS_METHOD,
  ETH_CHAIN_CHANGED_EVENT,
  ETH_CHAIN_ID_METHOD,
  ETH_SIGN_TYPED_DATA_V4_METHOD,
  PERSONAL_SIGN_METHOD,
  createNativeClient,
  parseAccountId,
  personalSign,
  sendNativeSessionRequest,
  signTypedDataV4,
  type Eip155Address,
  type Eip155SessionMethods,
  type EthSignature,
  type Hex,
  type Namespaces,
  type PersonalSignParams,
  type SessionMethodParams,
  type SessionMethodResult,
  type SignTypedDataV4Params,
  type TypedData,
  type TypedDataDomain,
} from '../../src/index.js';

// The names are literal types, so they key the method tables.
const namespace: 'eip155' = EIP155_NAMESPACE;
const mainnet: 'eip155:1' = EIP155_CHAINS.mainnet;
const sepolia: 'eip155:11155111' = EIP155_CHAINS.sepolia;
const names: ['eth_accounts', 'eth_chainId', 'personal_sign', 'eth_signTypedData_v4', 'accountsChanged', 'chainChanged'] =
  [ETH_ACCOUNTS_METHOD, ETH_CHAIN_ID_METHOD, PERSONAL_SIGN_METHOD, ETH_SIGN_TYPED_DATA_V4_METHOD, ETH_ACCOUNTS_CHANGED_EVENT, ETH_CHAIN_CHANGED_EVENT];
const signParams: SessionMethodParams<'personal_sign'> = ['0x68656c6c6f', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'] as const;
const signResult: SessionMethodResult<typeof PERSONAL_SIGN_METHOD> = '0x00';
const accountsResult: Eip155SessionMethods['eth_accounts']['result'] = ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'];

/** EIP-712's example, typed by the package. */
interface Person {
  name: string;
  wallet: string;
}
interface Mail {
  from: Person;
  to: Person;
  contents: string;
}
const domain: TypedDataDomain = { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' };
const mail: Mail = { from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' }, to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' }, contents: 'Hello, Bob!' };
const typedData: TypedData = {
  types: {
    EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
    Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
    Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }],
  },
  primaryType: 'Mail',
  domain,
  message: mail,
};
const typedParams: SignTypedDataV4Params = ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', JSON.stringify(typedData)];

export async function ethereumUse(): Promise<void> {
  const client = createNativeClient({ application: 'com.example.wallet_bridge', transport: 'port' });
  const required: Namespaces = { eip155: { chains: [EIP155_CHAINS.mainnet, EIP155_CHAINS.polygon], methods: [PERSONAL_SIGN_METHOD, ETH_SIGN_TYPED_DATA_V4_METHOD], events: [ETH_ACCOUNTS_CHANGED_EVENT, ETH_CHAIN_CHANGED_EVENT] } };
  const { topic, namespaces } = await client.connect({ requiredNamespaces: required, metadata: { name: 'Example dApp' } });
  const address = parseAccountId(namespaces['eip155']?.accounts[0] ?? '').address;
  const chainId = EIP155_CHAINS.mainnet;

  // Inner methods typed by name: params checked, results typed.
  const accounts: Eip155Address[] = await client.sessionRequest({ topic, chainId, request: { method: ETH_ACCOUNTS_METHOD } });
  const accounts2: string[] = await client.sessionRequest({ topic, chainId, request: { method: 'eth_accounts', params: [] } });
  const chainHex: Hex = await client.sessionRequest({ topic, chainId, request: { method: ETH_CHAIN_ID_METHOD } });
  const chainNumber: number = Number.parseInt(chainHex, 16);
  const signature: EthSignature = await client.sessionRequest({ topic, chainId, request: { method: PERSONAL_SIGN_METHOD, params: ['0x68656c6c6f', address] }, expiry: 1_795_000_600 });
  const fromTuple: EthSignature = await client.sessionRequest({ topic, chainId, request: { method: 'personal_sign', params: signParams } });
  const typed: `0x${string}` = await client.sessionRequest({ topic, chainId, request: { method: ETH_SIGN_TYPED_DATA_V4_METHOD, params: [address, typedData] } });
  const typedText: string = await sendNativeSessionRequest({ topic, chainId, request: { method: 'eth_signTypedData_v4', params: typedParams } });
  const typedAsConst: EthSignature = await client.sessionRequest({ topic, chainId, request: { method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typedData)] as const } });

  // The helpers: text or bytes, the typed data as an object or its JSON text.
  const helperSignature: EthSignature = await personalSign(client, { topic, chainId, message: 'Sign in to example.org', address, id: 'sign-1', timeoutMs: 300_000 });
  const fromBytes: EthSignature = await personalSign(client, { topic, chainId: 'eip155:137', message: new Uint8Array([1, 2]), address, expiry: 1_795_000_600 });
  const helperTyped: EthSignature = await signTypedDataV4(client, { topic, chainId, address, typedData });
  const helperTypedText: EthSignature = await signTypedDataV4(client, { topic, chainId, address, typedData: JSON.stringify(typedData) });

  void [accounts, accounts2, chainNumber, signature, fromTuple, typed, typedText, typedAsConst, helperSignature, fromBytes, helperTyped, helperTypedText];

  // @ts-expect-error personal_sign takes [message, address]: the address is missing
  await client.sessionRequest({ topic, chainId, request: { method: PERSONAL_SIGN_METHOD, params: ['0x68656c6c6f'] } });
  // @ts-expect-error personal_sign takes two params, not three (no password)
  await client.sessionRequest({ topic, chainId, request: { method: 'personal_sign', params: ['0x68', address, ''] } });
  // @ts-expect-error personal_sign's params are a tuple, not an object
  await client.sessionRequest({ topic, chainId, request: { method: 'personal_sign', params: { message: '0x68', address } } });
  // @ts-expect-error personal_sign needs its params
  await client.sessionRequest({ topic, chainId, request: { method: 'personal_sign' } });
  // @ts-expect-error the message is a string (0x-hex or text), not bytes: personalSign takes bytes
  await client.sessionRequest({ topic, chainId, request: { method: 'personal_sign', params: [new Uint8Array([1]), address] } });
  // @ts-expect-error eth_signTypedData_v4 takes [address, typedData]: swapped
  await client.sessionRequest({ topic, chainId, request: { method: ETH_SIGN_TYPED_DATA_V4_METHOD, params: [typedData, address] } });
  // @ts-expect-error typed data needs a primaryType
  await client.sessionRequest({ topic, chainId, request: { method: 'eth_signTypedData_v4', params: [address, { types: typedData.types, domain, message: mail }] } });
  // @ts-expect-error typed data's types need EIP712Domain
  const noDomainType: TypedData = { types: { Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', domain, message: mail };
  // @ts-expect-error a type's fields are { name, type }
  const badField: TypedData = { ...typedData, types: { EIP712Domain: [], Mail: [{ name: 'contents' }] } };
  // @ts-expect-error the domain's chainId is a number or a string
  const badDomain: TypedDataDomain = { chainId: true };
  // @ts-expect-error eth_accounts takes no params
  await client.sessionRequest({ topic, chainId, request: { method: 'eth_accounts', params: [address] } });
  // @ts-expect-error eth_chainId answers a hex string, not a number
  const notNumber: number = await client.sessionRequest({ topic, chainId, request: { method: 'eth_chainId' } });
  // @ts-expect-error a signature is 0x-hex text, not bytes
  const notBytes: Uint8Array = await personalSign(client, { topic, chainId, message: 'hi', address });
  // @ts-expect-error personalSign's message is text or bytes
  await personalSign(client, { topic, chainId, message: 42, address });
  // @ts-expect-error personalSign names the account `address` (signMessage's is `pubkey`)
  await personalSign(client, { topic, chainId, message: 'hi', pubkey: address });
  // @ts-expect-error signTypedDataV4 needs the typed data
  await signTypedDataV4(client, { topic, chainId, address });
  // @ts-expect-error an eip155 address starts with 0x
  const notAddress: Eip155Address = '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  // @ts-expect-error the constants are literal types, read-only
  EIP155_CHAINS.mainnet = 'eip155:2';
  void [noDomainType, badField, badDomain, notNumber, notBytes, notAddress];
}

void [namespace, mainnet, sepolia, names, signResult, accountsResult, typedParams];
export type { PersonalSignParams };
