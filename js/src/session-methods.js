// Error classes for wallet-bridge 0.1.0, generated from its OpenRPC document
// (OpenRPC 1.2.6) by wallet-bridge-types (js/bin/openrpc-to-ts.js --js).
// Generated: do not edit. Generate it again when the host changes. Importing it registers each
// class for the methods that declare its error, so the client rejects with it; the declarations
// written from the same document, beside this file under the same name, type it.
import { NativeRpcError, registerNativeRpcErrorClass } from './index.js';

/** The code of each error the methods declare, by name. */
export const HostErrorCode = Object.freeze({
  unsupportedNamespaceKey: 5104,
  unsupportedChains: 5100,
  unsupportedMethods: 5101,
  unsupportedEvents: 5102,
  unsupportedAccounts: 5103,
  userRejected: 5000,
  authorizationFailed: -1,
  sessionRequestExpired: 8000,
  noSessionForTopic: 7001,
  unauthorizedChain: 3005,
  unauthorizedMethod: 3001,
  unauthorized: 4100,
  userRejectedTheRequest: 4001,
  payloadNotSigned: -3,
});

/** 5104 "Unsupported namespace key", declared by session_connect. */
export class UnsupportedNamespaceKeyError extends NativeRpcError {
  static code = 5104;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 5104, message: fields.message ?? 'Unsupported namespace key' });
    this.name = 'UnsupportedNamespaceKeyError';
  }
}
registerNativeRpcErrorClass(5104, UnsupportedNamespaceKeyError, { methods: ['session_connect'] });

/** 5100 "Unsupported chains", declared by session_connect. */
export class UnsupportedChainsError extends NativeRpcError {
  static code = 5100;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 5100, message: fields.message ?? 'Unsupported chains' });
    this.name = 'UnsupportedChainsError';
  }
}
registerNativeRpcErrorClass(5100, UnsupportedChainsError, { methods: ['session_connect'] });

/** 5101 "Unsupported methods", declared by session_connect. */
export class UnsupportedMethodsError extends NativeRpcError {
  static code = 5101;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 5101, message: fields.message ?? 'Unsupported methods' });
    this.name = 'UnsupportedMethodsError';
  }
}
registerNativeRpcErrorClass(5101, UnsupportedMethodsError, { methods: ['session_connect'] });

/** 5102 "Unsupported events", declared by session_connect. */
export class UnsupportedEventsError extends NativeRpcError {
  static code = 5102;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 5102, message: fields.message ?? 'Unsupported events' });
    this.name = 'UnsupportedEventsError';
  }
}
registerNativeRpcErrorClass(5102, UnsupportedEventsError, { methods: ['session_connect'] });

/** 5103 "Unsupported accounts", declared by session_connect. */
export class UnsupportedAccountsError extends NativeRpcError {
  static code = 5103;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 5103, message: fields.message ?? 'Unsupported accounts' });
    this.name = 'UnsupportedAccountsError';
  }
}
registerNativeRpcErrorClass(5103, UnsupportedAccountsError, { methods: ['session_connect'] });

/** 5000 "User rejected", declared by session_connect. */
export class UserRejectedError extends NativeRpcError {
  static code = 5000;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 5000, message: fields.message ?? 'User rejected' });
    this.name = 'UserRejectedError';
  }
}
registerNativeRpcErrorClass(5000, UserRejectedError, { methods: ['session_connect'] });

/** -1 "Authorization failed", declared by session_connect, session_disconnect, session_extend, session_list, session_request. */
export class AuthorizationFailedError extends NativeRpcError {
  static code = -1;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: -1, message: fields.message ?? 'Authorization failed' });
    this.name = 'AuthorizationFailedError';
  }
}
registerNativeRpcErrorClass(-1, AuthorizationFailedError, { methods: ['session_connect', 'session_disconnect', 'session_extend', 'session_list', 'session_request'] });

/** 8000 "Session request expired", declared by session_connect, session_request. */
export class SessionRequestExpiredError extends NativeRpcError {
  static code = 8000;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 8000, message: fields.message ?? 'Session request expired' });
    this.name = 'SessionRequestExpiredError';
  }
}
registerNativeRpcErrorClass(8000, SessionRequestExpiredError, { methods: ['session_connect', 'session_request'] });

/** 7001 "No session for topic", declared by session_disconnect, session_extend, session_request. */
export class NoSessionForTopicError extends NativeRpcError {
  static code = 7001;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 7001, message: fields.message ?? 'No session for topic' });
    this.name = 'NoSessionForTopicError';
  }
}
registerNativeRpcErrorClass(7001, NoSessionForTopicError, { methods: ['session_disconnect', 'session_extend', 'session_request'] });

/** 3005 "Unauthorized chain", declared by session_request. */
export class UnauthorizedChainError extends NativeRpcError {
  static code = 3005;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 3005, message: fields.message ?? 'Unauthorized chain' });
    this.name = 'UnauthorizedChainError';
  }
}
registerNativeRpcErrorClass(3005, UnauthorizedChainError, { methods: ['session_request'] });

/** 3001 "Unauthorized method", declared by session_request. */
export class UnauthorizedMethodError extends NativeRpcError {
  static code = 3001;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 3001, message: fields.message ?? 'Unauthorized method' });
    this.name = 'UnauthorizedMethodError';
  }
}
registerNativeRpcErrorClass(3001, UnauthorizedMethodError, { methods: ['session_request'] });

/** 4100 "Unauthorized", declared by session_request. */
export class UnauthorizedError extends NativeRpcError {
  static code = 4100;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 4100, message: fields.message ?? 'Unauthorized' });
    this.name = 'UnauthorizedError';
  }
}
registerNativeRpcErrorClass(4100, UnauthorizedError, { methods: ['session_request'] });

/** 4001 "User rejected the request", declared by session_request. */
export class UserRejectedTheRequestError extends NativeRpcError {
  static code = 4001;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: 4001, message: fields.message ?? 'User rejected the request' });
    this.name = 'UserRejectedTheRequestError';
  }
}
registerNativeRpcErrorClass(4001, UserRejectedTheRequestError, { methods: ['session_request'] });

/** -3 "Payload not signed", declared by session_request. */
export class PayloadNotSignedError extends NativeRpcError {
  static code = -3;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: -3, message: fields.message ?? 'Payload not signed' });
    this.name = 'PayloadNotSignedError';
  }
}
registerNativeRpcErrorClass(-3, PayloadNotSignedError, { methods: ['session_request'] });
