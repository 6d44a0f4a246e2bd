// TypeScript declarations for wallet-bridge 0.1.0, generated from its OpenRPC document
// (OpenRPC 1.2.6) by wallet-bridge-types (js/bin/openrpc-to-ts.js).
// Generated: do not edit. Generate it again when the host changes.
import type { JsonValue, NativeMethod, NativeRpcId } from './index.js';
import { NativeRpcError } from './index.js';

// ---- session_connect

export type SessionConnectParams = {
  metadata: {
    /** Not in the type: maxLength 500. */
    description?: string | null;
    /** Not in the type: maxItems 8. */
    icons?: readonly string[] | null;
    /** Not in the type: minLength 1, maxLength 100. */
    name: string;
    /** Not in the type: maxLength 2048, anyOf (maxLength 0 | pattern "^[Hh][Tt][Tt][Pp][Ss]?://"). */
    url?: string | null;
  };
  optionalNamespaces?: {
    [key: string]: {
      /** Not in the type: minItems 1, maxItems 64. */
      chains: readonly string[];
      /** Not in the type: maxItems 64. */
      events: readonly string[];
      /** Not in the type: maxItems 64. */
      methods: readonly string[];
    } | {
      chains?: never;
      /** Not in the type: maxItems 64. */
      events: readonly string[];
      /** Not in the type: maxItems 64. */
      methods: readonly string[];
    };
  } | null | null;
  origin?: string | null;
  requiredNamespaces?: {
    [key: string]: {
      /** Not in the type: minItems 1, maxItems 64. */
      chains: readonly string[];
      /** Not in the type: maxItems 64. */
      events: readonly string[];
      /** Not in the type: maxItems 64. */
      methods: readonly string[];
    } | {
      chains?: never;
      /** Not in the type: maxItems 64. */
      events: readonly string[];
      /** Not in the type: maxItems 64. */
      methods: readonly string[];
    };
  } | null | null;
};

export type Session = {
  /**
   * Seconds since the Unix epoch
   * Not in the type: integer, minimum 1, maximum 9007199254740991.
   */
  expiry: number;
  /**
   * Keys match "^[-a-z0-9]{3,8}$".
   * Not in the type: minProperties 1.
   */
  namespaces: {
    [key: string]: {
      accounts: string[];
      /** Not in the type: minItems 1, maxItems 64. */
      chains: string[];
      /** Not in the type: maxItems 64. */
      events: string[];
      /** Not in the type: maxItems 64. */
      methods: string[];
    };
  };
  /** Keys match "^[-a-z0-9]{3,8}$". */
  optionalNamespaces: {
    [key: string]: {
      /** Not in the type: minItems 1, maxItems 64. */
      chains: string[];
      /** Not in the type: maxItems 64. */
      events: string[];
      /** Not in the type: maxItems 64. */
      methods: string[];
    };
  };
  /**
   * The site the session is for; absent for the extension's own session
   * Not in the type: maxLength 255, pattern "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$".
   */
  origin?: string;
  /** The wallet */
  peer: {
    metadata: {
      /** Not in the type: maxLength 500. */
      description: string;
      /** Not in the type: maxItems 8. */
      icons: string[];
      /** Not in the type: minLength 1, maxLength 100. */
      name: string;
      /** Not in the type: maxLength 2048, anyOf (maxLength 0 | pattern "^[Hh][Tt][Tt][Pp][Ss]?://"). */
      url: string;
    };
  };
  /** Keys match "^[-a-z0-9]{3,8}$". */
  requiredNamespaces: {
    [key: string]: {
      /** Not in the type: minItems 1, maxItems 64. */
      chains: string[];
      /** Not in the type: maxItems 64. */
      events: string[];
      /** Not in the type: maxItems 64. */
      methods: string[];
    };
  };
  /** The caller: the extension's metadata, as proposed */
  self: {
    metadata: {
      /** Not in the type: maxLength 500. */
      description: string;
      /** Not in the type: maxItems 8. */
      icons: string[];
      /** Not in the type: minLength 1, maxLength 100. */
      name: string;
      /** Not in the type: maxLength 2048, anyOf (maxLength 0 | pattern "^[Hh][Tt][Tt][Pp][Ss]?://"). */
      url: string;
    };
  };
  /**
   * A session's topic: 64 lowercase hex digits, as session_connect answered it
   * Not in the type: pattern "^[0-9a-f]{64}$".
   */
  topic: string;
};

/**
 * Proposes a session: checks the namespaces asked for, asks the person, and answers the session with the wallet's accounts on every approved chain.
 * Errors: 5104 "Unsupported namespace key" (UnsupportedNamespaceKeyError), 5100 "Unsupported chains" (UnsupportedChainsError), 5101 "Unsupported methods" (UnsupportedMethodsError), 5102 "Unsupported events" (UnsupportedEventsError), 5103 "Unsupported accounts" (UnsupportedAccountsError), 5000 "User rejected" (UserRejectedError), -1 "Authorization failed" (AuthorizationFailedError), 8000 "Session request expired" (SessionRequestExpiredError).
 */
export type SessionConnectMethod = NativeMethod<'session_connect', SessionConnectParams, Session>;

// ---- session_disconnect

export type SessionDisconnectParams = {
  origin?: string | null;
  reason?: {
    /** Not in the type: integer. */
    code: number;
    /**
     * At most 256 bytes of UTF-8
     * Not in the type: maxLength 256.
     */
    message: string;
  } | null;
  /**
   * A session's topic: 64 lowercase hex digits, as session_connect answered it
   * Not in the type: pattern "^[0-9a-f]{64}$".
   */
  topic: string;
};

export type SessionDisconnectResult = {
  [key: string]: never;
};

/**
 * Ends a session; the extension's ports hear session_delete with the reason.
 * Errors: -1 "Authorization failed" (AuthorizationFailedError), 7001 "No session for topic" (NoSessionForTopicError).
 */
export type SessionDisconnectMethod = NativeMethod<'session_disconnect', SessionDisconnectParams, SessionDisconnectResult>;

// ---- session_extend

export type SessionExtendParams = {
  origin?: string | null;
  /**
   * A session's topic: 64 lowercase hex digits, as session_connect answered it
   * Not in the type: pattern "^[0-9a-f]{64}$".
   */
  topic: string;
};

export type SessionExtendResult = {
  /**
   * Seconds since the Unix epoch
   * Not in the type: integer, minimum 1, maximum 9007199254740991.
   */
  expiry: number;
};

/**
 * Makes a session last the session lifetime (7 days unless configured) from now; answers its new expiry.
 * Errors: -1 "Authorization failed" (AuthorizationFailedError), 7001 "No session for topic" (NoSessionForTopicError).
 */
export type SessionExtendMethod = NativeMethod<'session_extend', SessionExtendParams, SessionExtendResult>;

// ---- session_list

export type SessionListParams = {
  origin?: string | null;
};

export type SessionListResult = {
  sessions: {
    /**
     * Seconds since the Unix epoch
     * Not in the type: integer, minimum 1, maximum 9007199254740991.
     */
    expiry: number;
    /**
     * Keys match "^[-a-z0-9]{3,8}$".
     * Not in the type: minProperties 1.
     */
    namespaces: {
      [key: string]: {
        accounts: string[];
        /** Not in the type: minItems 1, maxItems 64. */
        chains: string[];
        /** Not in the type: maxItems 64. */
        events: string[];
        /** Not in the type: maxItems 64. */
        methods: string[];
      };
    };
    /** Keys match "^[-a-z0-9]{3,8}$". */
    optionalNamespaces: {
      [key: string]: {
        /** Not in the type: minItems 1, maxItems 64. */
        chains: string[];
        /** Not in the type: maxItems 64. */
        events: string[];
        /** Not in the type: maxItems 64. */
        methods: string[];
      };
    };
    /**
     * The site the session is for; absent for the extension's own session
     * Not in the type: maxLength 255, pattern "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$".
     */
    origin?: string;
    /** The wallet */
    peer: {
      metadata: {
        /** Not in the type: maxLength 500. */
        description: string;
        /** Not in the type: maxItems 8. */
        icons: string[];
        /** Not in the type: minLength 1, maxLength 100. */
        name: string;
        /** Not in the type: maxLength 2048, anyOf (maxLength 0 | pattern "^[Hh][Tt][Tt][Pp][Ss]?://"). */
        url: string;
      };
    };
    /** Keys match "^[-a-z0-9]{3,8}$". */
    requiredNamespaces: {
      [key: string]: {
        /** Not in the type: minItems 1, maxItems 64. */
        chains: string[];
        /** Not in the type: maxItems 64. */
        events: string[];
        /** Not in the type: maxItems 64. */
        methods: string[];
      };
    };
    /** The caller: the extension's metadata, as proposed */
    self: {
      metadata: {
        /** Not in the type: maxLength 500. */
        description: string;
        /** Not in the type: maxItems 8. */
        icons: string[];
        /** Not in the type: minLength 1, maxLength 100. */
        name: string;
        /** Not in the type: maxLength 2048, anyOf (maxLength 0 | pattern "^[Hh][Tt][Tt][Pp][Ss]?://"). */
        url: string;
      };
    };
    /**
     * A session's topic: 64 lowercase hex digits, as session_connect answered it
     * Not in the type: pattern "^[0-9a-f]{64}$".
     */
    topic: string;
  }[];
};

/**
 * The caller's live sessions for the site origin names (its own without), oldest first.
 * Errors: -1 "Authorization failed" (AuthorizationFailedError).
 */
export type SessionListMethod = NativeMethod<'session_list', SessionListParams, SessionListResult>;

// ---- session_request

export type SessionRequestParams = {
  /**
   * A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)
   * Not in the type: pattern "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$".
   */
  chainId: string;
  expiry?: number | null;
  origin?: string | null;
  /** Not in the type: anyOf. */
  request: {
    method: string;
    params?: JsonValue;
  };
  /**
   * A session's topic: 64 lowercase hex digits, as session_connect answered it
   * Not in the type: pattern "^[0-9a-f]{64}$".
   */
  topic: string;
};

export type SessionRequestResult = {
  /**
   * The 64-byte Ed25519 signature, in base58
   * Not in the type: pattern "^[1-9A-HJ-NP-Za-km-z]{64,88}$".
   */
  signature: string;
} | {
  /**
   * This key's 64-byte Ed25519 signature, in base58
   * Not in the type: pattern "^[1-9A-HJ-NP-Za-km-z]{64,88}$".
   */
  signature: string;
  /**
   * The whole transaction with that signature in its slot, other signatures kept
   * Not in the type: maxLength 1644, pattern "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$".
   */
  transaction: string;
} | {
  signatures: string[];
  transactions: string[];
} | {
  /**
   * The key that signed
   * Not in the type: pattern "^[1-9A-HJ-NP-Za-km-z]{32,44}$".
   */
  address: string;
  /** The exact text signed (its UTF-8 bytes) */
  message: string;
  /**
   * The 64-byte Ed25519 signature, in base58
   * Not in the type: pattern "^[1-9A-HJ-NP-Za-km-z]{64,88}$".
   */
  signature: string;
} | {
  /** Not in the type: pattern "^[1-9A-HJ-NP-Za-km-z]{32,44}$". */
  pubkey: string;
}[] | string | string[];

/**
 * A request within a session (solana_signMessage, solana_signTransaction, solana_signAllTransactions, solana_signIn, solana_getAccounts, solana_requestAccounts; eth_accounts, eth_chainId, personal_sign, eth_signTypedData_v4, eth_signTransaction), checked against the session; answers the inner method's result. The wallet signs transactions and never sends them: eth_sendTransaction is 3001.
 * Errors: -1 "Authorization failed" (AuthorizationFailedError), 8000 "Session request expired" (SessionRequestExpiredError), 7001 "No session for topic" (NoSessionForTopicError), 3005 "Unauthorized chain" (UnauthorizedChainError), 3001 "Unauthorized method" (UnauthorizedMethodError), 4100 "Unauthorized" (UnauthorizedError), 4001 "User rejected the request" (UserRejectedTheRequestError), -3 "Payload not signed" (PayloadNotSignedError).
 */
export type SessionRequestMethod = NativeMethod<'session_request', SessionRequestParams, SessionRequestResult>;

// ---- errors (their classes are defined by the error module, openrpc-to-ts --js)

/** The code of each error the methods declare, by name. */
export declare const HostErrorCode: Readonly<{
  unsupportedNamespaceKey: 5104;
  unsupportedChains: 5100;
  unsupportedMethods: 5101;
  unsupportedEvents: 5102;
  unsupportedAccounts: 5103;
  userRejected: 5000;
  authorizationFailed: -1;
  sessionRequestExpired: 8000;
  noSessionForTopic: 7001;
  unauthorizedChain: 3005;
  unauthorizedMethod: 3001;
  unauthorized: 4100;
  userRejectedTheRequest: 4001;
  payloadNotSigned: -3;
}>;

/** 5104 "Unsupported namespace key", declared by session_connect. */
export declare class UnsupportedNamespaceKeyError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 5104;
  code: 5104;
}

/** 5100 "Unsupported chains", declared by session_connect. */
export declare class UnsupportedChainsError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 5100;
  code: 5100;
}

/** 5101 "Unsupported methods", declared by session_connect. */
export declare class UnsupportedMethodsError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 5101;
  code: 5101;
}

/** 5102 "Unsupported events", declared by session_connect. */
export declare class UnsupportedEventsError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 5102;
  code: 5102;
}

/** 5103 "Unsupported accounts", declared by session_connect. */
export declare class UnsupportedAccountsError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 5103;
  code: 5103;
}

/** 5000 "User rejected", declared by session_connect. */
export declare class UserRejectedError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 5000;
  code: 5000;
}

/** -1 "Authorization failed", declared by session_connect, session_disconnect, session_extend, session_list, session_request. */
export declare class AuthorizationFailedError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: -1;
  code: -1;
}

/** 8000 "Session request expired", declared by session_connect, session_request. */
export declare class SessionRequestExpiredError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 8000;
  code: 8000;
}

/** 7001 "No session for topic", declared by session_disconnect, session_extend, session_request. */
export declare class NoSessionForTopicError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 7001;
  code: 7001;
}

/** 3005 "Unauthorized chain", declared by session_request. */
export declare class UnauthorizedChainError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 3005;
  code: 3005;
}

/** 3001 "Unauthorized method", declared by session_request. */
export declare class UnauthorizedMethodError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 3001;
  code: 3001;
}

/** 4100 "Unauthorized", declared by session_request. */
export declare class UnauthorizedError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 4100;
  code: 4100;
}

/** 4001 "User rejected the request", declared by session_request. */
export declare class UserRejectedTheRequestError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: 4001;
  code: 4001;
}

/** -3 "Payload not signed", declared by session_request. */
export declare class PayloadNotSignedError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: -3;
  code: -3;
}

/** Every method of wallet-bridge, by name: the params it takes and the result it answers with. */
export interface HostMethods {
  'session_connect': { params: SessionConnectParams; result: Session };
  'session_disconnect': { params: SessionDisconnectParams; result: SessionDisconnectResult };
  'session_extend': { params: SessionExtendParams; result: SessionExtendResult };
  'session_list': { params: SessionListParams; result: SessionListResult };
  'session_request': { params: SessionRequestParams; result: SessionRequestResult };
}
