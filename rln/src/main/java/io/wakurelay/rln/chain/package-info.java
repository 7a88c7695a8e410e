/**
 * The RLN membership roots, read from the membership contract over JSON-RPC as nwaku reads them (docs/rln.md,
 * "Membership roots"; ADR 0084). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.rln.chain.MembershipRootsConfig}: the endpoints, contract, chain, window and intervals, and
 *     the bounds of a call.</li>
 * <li>{@link io.wakurelay.rln.chain.MembershipRoots}: start (the chain checked, the first root read), the reads every
 *     poll interval and on an unknown root, {@code contains} for the event loops, the health view, shutdown;
 *     {@link io.wakurelay.rln.chain.ChainStartException} when it cannot start.</li>
 * <li>{@code RootReader}: one read of {@code root()} (and of {@code nextFreeIndex()} when the root changed), and
 *     whether reading works, logged once per change.</li>
 * <li>{@code Endpoints}: which eth client a call goes to, the next ones tried when it fails, each one's chain
 *     checked.</li>
 * <li>{@code EthRpc}, {@code JsonRpcClient}: {@code eth_chainId} and {@code eth_call} as JSON-RPC 2.0 over HTTP
 *     (Reactor Netty), bounded in time and size; {@code RpcException} and {@code RpcFailure}: why a call failed.</li>
 * <li>{@code Abi}: selectors, call data, 32-byte words, and the contract's big-endian {@code uint256} root as the
 *     little-endian field element a proof carries.</li>
 * <li>{@code RootWindow}: the last roots, asked without a lock or an allocation.</li>
 * <li>{@code ChainMetrics}: {@code waku_rln_number_registered_memberships} and the {@code waku_rln_rpc_*} and
 *     {@code waku_rln_root_*} meters.</li>
 * </ul>
 */
package io.wakurelay.rln.chain;
