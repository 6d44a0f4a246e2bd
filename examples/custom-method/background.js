// An extension's background script (Firefox) or service worker (Chrome, "type": "module")
// calling the custom method. The manifest needs the "nativeMessaging" permission, and the host
// manifest `com.example.ping_host.json` must point at the built ping-host binary.
import { NativeRpcError, NativeTransportError, configureNativeClient } from '../../js/src/index.js';
import { EmptyPingError, sendMyCustomPing } from './ping.js';

configureNativeClient({ application: 'com.example.ping_host' });

export async function ping() {
  try {
    const { pong } = await sendMyCustomPing({ pingParam1: 'ping', pingParam2: ['a', 'b'] });
    console.log(pong);
  } catch (error) {
    if (error instanceof NativeTransportError && error.kind === 'host-not-found') {
      console.error('ping-host is not installed:', error.message);
    } else if (error instanceof EmptyPingError) {
      // The method's own error, typed: its class is generated from the host's description.
      console.error('nothing to ping with:', error.data);
    } else if (error instanceof NativeRpcError) {
      console.error(`the host refused: ${error.code} ${error.message}`, error.data);
    } else {
      throw error;
    }
  }
}
