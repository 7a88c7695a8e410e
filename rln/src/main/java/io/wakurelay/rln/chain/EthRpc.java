package io.wakurelay.rln.chain;

import java.net.URI;

/**
 * The two calls the roots need of an eth client, each to one endpoint, blocking the calling thread (never a Netty
 * event loop) for at most the call's timeout. {@link JsonRpcClient} makes them over HTTP; tests give a fake.
 */
interface EthRpc extends AutoCloseable {
    /** {@code eth_chainId}. */
    long chainId(URI endpoint) throws RpcException;

    /**
     * {@code eth_call} of {@code callData} to {@code contract} at the latest block: the bytes returned, never empty
     * (no bytes is {@link RpcFailure#NO_CONTRACT}).
     */
    byte[] call(URI endpoint, String contract, String callData) throws RpcException;

    @Override
    void close();
}
